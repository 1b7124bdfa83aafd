package io.shardset.calcite;

import io.shardset.calcite.plan.SortMemory;
import io.shardset.testing.LongTest;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.StringJoiner;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sorts, groupings, DISTINCT and joins above the shards of a million rows, on a wide
 * column that is not the shard key, in a 128 MB heap (the build runs this class alone with
 * {@code -Xmx128m}) with the default sort memory: each holds at most its budget and spills the
 * rest to temporary files, which are gone afterwards (the build gives it a temporary folder of
 * its own). The rows take about 1.2 GB as Java strings; held in memory, any of these ends in
 * OutOfMemoryError.
 */
@LongTest
class BigQueriesMemoryTest {
  private static final int SHARDS = 4;
  private static final int ROWS_PER_SHARD = 250_000;
  private static final long ROWS = (long) SHARDS * ROWS_PER_SHARD;
  private static final int WIDTH = 600;

  private static List<String> databases;
  private static String model;

  @BeforeAll static void createShards() throws SQLException, IOException {
    PostgresServer.require();
    Files.createDirectories(temporaryFolder());
    databases = PostgresServer.createDatabases("bigmem", SHARDS);
    final StringJoiner shards = new StringJoiner(", ");
    final StringJoiner ranges = new StringJoiner(", ");
    for (int i = 0; i < SHARDS; i++) {
      final String url = PostgresServer.url(databases.get(i));
      try (Connection c = DriverManager.getConnection(url, PostgresServer.USER, "");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE BIG (ID BIGINT PRIMARY KEY, W VARCHAR(700) NOT NULL)");
        // W: a permutation of the ids, zero-padded, then padding: distinct, wide, and in an
        // order unrelated to the key.
        s.execute("INSERT INTO BIG SELECT X, LPAD(((X * 7919) % 1000003)::TEXT, 10, '0')"
            + " || REPEAT('w', " + (WIDTH - 10) + ") FROM GENERATE_SERIES("
            + (long) i * ROWS_PER_SHARD + "::BIGINT, "
            + ((long) (i + 1) * ROWS_PER_SHARD - 1) + "::BIGINT) AS X");
        s.execute("ANALYZE BIG");
      }
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + url + "\", \"jdbcUser\": \""
          + PostgresServer.USER + "\", \"jdbcPassword\": \"\"}");
      ranges.add("{\"shard\": \"s" + i + "\", \"from\": " + (long) i * ROWS_PER_SHARD
          + ", \"to\": " + (long) (i + 1) * ROWS_PER_SHARD + "}");
    }
    model = "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{"
        + "\"name\": \"S\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\","
        + " \"operand\": {\"shards\": [" + shards + "], \"tables\": [{\"name\": \"BIG\","
        + " \"method\": \"range\", \"shardKey\": [\"ID\"], \"ranges\": [" + ranges + "]}]}}]}";
  }

  @AfterAll static void dropShards() throws SQLException {
    if (databases != null) {
      PostgresServer.drop(databases);
    }
  }

  @AfterEach void noSpilledRowsAreLeft() {
    assertEquals(0, spilledFiles(), "files left in " + temporaryFolder());
  }

  @Test void theDefaultBudgetIsAnEighthOfThisSmallHeap() {
    assertTrue(Runtime.getRuntime().maxMemory() < 160L << 20, "runs in a small heap");
    assertEquals(Runtime.getRuntime().maxMemory() / 8, SortMemory.defaultBytes());
  }

  @Test void orderByAWideColumn() throws SQLException {
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT ID, W FROM BIG ORDER BY W")) {
      String previous = "";
      long rows = 0;
      while (rs.next()) {
        final String w = rs.getString(2);
        assertTrue(previous.compareTo(w) < 0, "ordered at row " + rows);
        previous = w;
        rows++;
      }
      assertEquals(ROWS, rows);
    }
  }

  @Test void groupByAWideColumn() throws SQLException {
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT W, COUNT(*) FROM BIG GROUP BY W")) {
      long groups = 0;
      while (rs.next()) {
        assertEquals(1, rs.getLong(2));
        groups++;
      }
      assertEquals(ROWS, groups);
    }
  }

  @Test void countDistinctOfAWideColumn() throws SQLException {
    assertEquals(List.of(ROWS + ""), rows("SELECT COUNT(DISTINCT W) FROM BIG"));
  }

  @Test void hashJoinOnAWideColumn() throws SQLException {
    final String sql = "SELECT COUNT(*), SUM(A.ID - B.ID) FROM BIG A JOIN BIG B ON A.W = B.W";
    assertTrue(rows("EXPLAIN PLAN FOR " + sql).get(0).contains("EnumerableHashJoin"));
    assertEquals(List.of(ROWS + ", 0"), rows(sql));
  }

  @Test void groupingOfJoinRows() throws SQLException {
    assertEquals(List.of(ROWS + ""), rows("SELECT COUNT(*) FROM (SELECT A.W, COUNT(*) AS N"
        + " FROM BIG A JOIN BIG B ON A.W = B.W GROUP BY A.W) AS G WHERE N = 1"));
  }

  private static List<String> rows(String sql) throws SQLException {
    try (Connection c = ShardFixture.connect(model)) {
      return ShardFixture.rows(c, sql);
    }
  }

  private static Path temporaryFolder() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  private static long spilledFiles() {
    try (Stream<Path> files = Files.list(temporaryFolder())) {
      return files.filter(f -> f.getFileName().toString().startsWith("shardset-")
          && f.getFileName().toString().endsWith(".rows")).count();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
