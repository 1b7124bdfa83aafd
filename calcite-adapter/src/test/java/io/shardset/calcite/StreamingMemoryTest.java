package io.shardset.calcite;

import io.shardset.testing.LongTest;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A full scan streams: it runs in a JVM whose heap is a fraction of the result's size (the
 * build runs this class alone with {@code -Xmx96m}), so buffering the result anywhere would
 * fail with OutOfMemoryError.
 */
@LongTest
class StreamingMemoryTest {
  private static final int SHARDS = 4;
  private static final int ROWS_PER_SHARD = 125_000;
  private static final int PAYLOAD = 600;

  @TempDir static Path dir;
  private static String model;

  @BeforeAll static void createShards() throws SQLException {
    model = model(dir);
  }

  @Test void fullScanStreamsInASmallHeap() throws SQLException {
    try (Connection c = ShardFixture.connect(model);
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT ID, PAYLOAD FROM BIG")) {
      long rows = 0;
      long chars = 0;
      while (rs.next()) {
        rows++;
        chars += rs.getString(2).length();
      }
      // About 1.2 GB as Java strings: many times the heap this test runs in.
      assertEquals((long) SHARDS * ROWS_PER_SHARD, rows);
      assertEquals((long) SHARDS * ROWS_PER_SHARD * PAYLOAD, chars);
    }
  }

  @Test void sortedScanMergesInASmallHeap() throws SQLException {
    try (Connection c = ShardFixture.connect(model);
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT ID, PAYLOAD FROM BIG ORDER BY ID DESC")) {
      // Every shard returns its rows sorted; the merge interleaves them in order.
      long expected = (long) SHARDS * ROWS_PER_SHARD - 1;
      while (rs.next()) {
        assertEquals(expected--, rs.getLong(1));
        assertEquals(PAYLOAD, rs.getString(2).length());
      }
      assertEquals(-1, expected);
    }
  }

  /**
   * A join the shards cannot run (its rows meet on another shard), of rows several times the
   * heap: the hash join holds its build side up to the connection's sort memory and joins the
   * rest in partitions written to files, instead of holding a side in the heap.
   */
  @Test void aJoinAboveTheShardsRunsWithinItsMemory() throws SQLException {
    try (Connection c = sortMemory("16MB"); Statement s = c.createStatement()) {
      final String sql = "SELECT COUNT(*), SUM(CHAR_LENGTH(A.PAYLOAD) + CHAR_LENGTH(B.PAYLOAD))"
          + " FROM BIG A JOIN BIG B ON A.ID = B.ID + 1";
      try (ResultSet plan = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
        assertTrue(plan.next());
        assertTrue(plan.getString(1).contains("EnumerableHashJoin"), plan.getString(1));
      }
      try (ResultSet rs = s.executeQuery(sql)) {
        assertTrue(rs.next());
        final long rows = (long) SHARDS * ROWS_PER_SHARD - 1;
        assertEquals(rows, rs.getLong(1));
        assertEquals(rows * 2 * PAYLOAD, rs.getLong(2));
      }
    }
  }

  /**
   * Groupings of the shards' rows into hundreds of thousands of groups of wide values, and a
   * COUNT(DISTINCT) of half a million wide values: the final aggregation above the shards
   * sorts their rows by the group within the sort memory and holds one group at a time.
   */
  @Test void aggregationsOfManyGroupsRunWithinTheSortMemory() throws SQLException {
    try (Connection c = sortMemory("16MB"); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT MOD(ID, 400000) AS G, COUNT(*),"
          + " MAX(PAYLOAD || CAST(ID AS VARCHAR(20))) FROM BIG GROUP BY MOD(ID, 400000)")) {
        long groups = 0;
        long rows = 0;
        while (rs.next()) {
          groups++;
          rows += rs.getLong(2);
          assertTrue(rs.getString(3).startsWith("x".repeat(PAYLOAD)));
        }
        assertEquals(400_000, groups);
        assertEquals((long) SHARDS * ROWS_PER_SHARD, rows);
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT PAYLOAD || CAST(ID AS"
          + " VARCHAR(20))) FROM BIG")) {
        assertTrue(rs.next());
        assertEquals((long) SHARDS * ROWS_PER_SHARD, rs.getLong(1));
      }
    }
  }

  private static Connection sortMemory(String size) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("model", "inline:" + model);
    info.setProperty("sortMemory", size);
    return DriverManager.getConnection("jdbc:shardset:", info);
  }

  /** Creates the shards (H2 files in {@code dir}) and returns the model over them. */
  private static String model(Path folder) throws SQLException {
    final StringJoiner shards = new StringJoiner(", ");
    final StringJoiner ranges = new StringJoiner(", ");
    for (int i = 0; i < SHARDS; i++) {
      // Small page caches: the shards live in this JVM too.
      final String url = "jdbc:h2:" + folder.resolve("s" + i) + ";CACHE_SIZE=1024";
      try (Connection c = DriverManager.getConnection(url, "sa", "");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE BIG (ID BIGINT PRIMARY KEY, PAYLOAD VARCHAR(700))");
        s.execute("INSERT INTO BIG SELECT X, REPEAT('x', " + PAYLOAD + ") FROM SYSTEM_RANGE("
            + (long) i * ROWS_PER_SHARD + ", " + ((long) (i + 1) * ROWS_PER_SHARD - 1) + ")");
      }
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + url.replace("\\", "\\\\")
          + "\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\"}");
      ranges.add("{\"shard\": \"s" + i + "\", \"from\": " + (long) i * ROWS_PER_SHARD
          + ", \"to\": " + (long) (i + 1) * ROWS_PER_SHARD + "}");
    }
    return "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{"
        + "\"name\": \"S\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\","
        + " \"operand\": {\"shards\": [" + shards + "], \"tables\": [{\"name\": \"BIG\","
        + " \"method\": \"range\", \"shardKey\": [\"ID\"], \"ranges\": [" + ranges + "]}]}}]}";
  }
}
