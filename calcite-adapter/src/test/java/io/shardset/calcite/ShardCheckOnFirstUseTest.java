package io.shardset.calcite;

import io.shardset.testing.CountingShards;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code "checkShards": "onFirstUse"}: opening a connection reads only each table's first
 * shard; every other shard is checked against it the first time a statement connects to it,
 * and a shard that disagrees fails that statement with the error opening with
 * {@code atOpen} gives, before anything is sent to it, and serves again once mended.
 */
class ShardCheckOnFirstUseTest {
  private static final String ON_FIRST_USE =
      "\"checkShards\": \"onFirstUse\", " + ConnectionOpeningTest.TABLES;
  private static final int ROWS = 200;

  private ShardFixture fixture;
  private CountingShards shards;

  @BeforeEach void createShards() {
    fixture = ShardFixture.h2(8, ConnectionOpeningTest.DDL);
    shards = fixture.shards();
  }

  @AfterEach void closeShards() throws SQLException {
    fixture.close();
  }

  @Test void openingReadsTheFirstShardAndAStatementChecksOnlyTheShardsItReaches()
      throws SQLException {
    try (Connection c = ShardFixture.connect(fixture.model(ON_FIRST_USE))) {
      assertEquals(Set.of("s0"), shardsRead());
      try (PreparedStatement p = c.prepareStatement("SELECT V FROM T WHERE K = ?")) {
        p.setInt(1, 42);
        ShardFixture.rows(p.executeQuery());
        final Set<String> reached = fixture.shardsReached();
        assertEquals(1, reached.size());
        final Set<String> read = new TreeSet<>(reached);
        read.add("s0");
        assertEquals(read, shardsRead());
      }
    }
  }

  @Test void answersEqualTheUnshardedDatabase() throws SQLException {
    try (Connection c = ShardFixture.connect(fixture.model(ON_FIRST_USE))) {
      fixture.load(c, "T", rows());
      for (String sql : List.of("SELECT K, V FROM T ORDER BY K",
          "SELECT COUNT(*), MIN(V), MAX(K) FROM T", "SELECT V FROM T WHERE K IN (3, 77, 150)")) {
        assertEquals(fixture.oracleRows(sql), ShardFixture.rows(c, sql), sql);
      }
    }
  }

  @Test void aShardThatDisagreesFailsTheFirstStatementReachingItAndNothingReachesIt()
      throws SQLException {
    shards.execute("s3", "ALTER TABLE T ADD COLUMN OTHER INT");
    try (Connection c = ShardFixture.connect(fixture.model(ON_FIRST_USE))) {
      shards.resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT COUNT(*) FROM T"));
      assertEquals("shard 's3' failed: Invalid ShardSet model: schema 'S', table 'T', field"
          + " 'columns': shard 's3' has 3 columns (K, V, OTHER) where shard 's0' has 2 (K, V)",
          rootMessage(e));
      assertEquals(0, shards.statementsExecuted("s3"));

      // Mended, the shard serves the same connection again.
      shards.execute("s3", "ALTER TABLE T DROP COLUMN OTHER");
      assertEquals(List.of("0"), ShardFixture.rows(c, "SELECT COUNT(*) FROM T"));
    }
  }

  @Test void aWiderOrNullableColumnIsADifferenceTheFirstShardWouldNotHaveShown()
      throws SQLException {
    shards.execute("s5", "ALTER TABLE T ALTER COLUMN V VARCHAR(20)");
    try (Connection c = ShardFixture.connect(fixture.model(ON_FIRST_USE))) {
      final SQLException e = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT COUNT(*) FROM T"));
      assertEquals("shard 's5' failed: Invalid ShardSet model: schema 'S', table 'T', field"
          + " 'columns': shard 's5' has column 'V' as CHARACTER VARYING(20, 0) NULL where shard"
          + " 's0', read for it when the connection opened, has CHARACTER VARYING(10, 0) NULL",
          rootMessage(e));
    }
  }

  @Test void aMissingTableFailsTheStatementWithItsName() throws SQLException {
    shards.execute("s6", "DROP TABLE T");
    try (Connection c = ShardFixture.connect(fixture.model(ON_FIRST_USE))) {
      final SQLException e = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT COUNT(*) FROM T"));
      assertEquals("shard 's6' failed: Invalid ShardSet model: schema 'S', table 'T', field"
          + " 'physicalName': table 'T' not found on shard 's6'", rootMessage(e));
    }
  }

  @Test void aWriteToAShardThatDisagreesWritesNoRowAnywhere() throws SQLException {
    shards.execute("s2", "ALTER TABLE T ADD COLUMN OTHER INT");
    try (Connection c = ShardFixture.connect(fixture.model(ON_FIRST_USE))) {
      final List<String> written = new ArrayList<>();
      int failed = 0;
      for (int k = 0; k < 40; k++) {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO T VALUES (?, ?)")) {
          p.setInt(1, k);
          p.setString(2, "v" + k);
          p.executeUpdate();
          written.add(Integer.toString(k));
        } catch (SQLException e) {
          assertTrue(e.getMessage().contains("shard 's2' failed: Invalid ShardSet model:"),
              e.getMessage());
          failed++;
        }
      }
      assertTrue(failed > 0 && !written.isEmpty(), written.size() + " written");
      assertEquals(0, rowsOn("s2"));
      shards.execute("s2", "ALTER TABLE T DROP COLUMN OTHER");
      assertEquals(written, ShardFixture.rows(c, "SELECT K FROM T ORDER BY K"));
    }
  }

  @Test void aShardThatIsDownDoesNotConcernOpeningNorStatementsThatDoNotReachIt()
      throws SQLException {
    final String dead = "{\"name\": \"dead\", \"jdbcUrl\": \"jdbc:counting:none:dead\","
        + " \"jdbcUser\": \"sa\", \"connectTimeout\": 250}";
    final String json = fixture.model(ON_FIRST_USE);
    final int second = json.indexOf("},", json.indexOf("\"shards\"")) + 2;
    try (Connection c = ShardFixture.connect(
        json.substring(0, second) + dead + ", " + json.substring(second))) {
      assertEquals(List.of("0"), ShardFixture.rows(c, "SELECT COUNT(*) FROM R"));
      final SQLException e = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT COUNT(*) FROM T"));
      assertTrue(rootMessage(e).startsWith("shard 'dead' failed: "), rootMessage(e));
    }
  }

  @Test void anUnknownSettingIsAModelError() {
    final RuntimeException e = assertThrows(RuntimeException.class, () -> ShardFixture.connect(
        fixture.model("\"checkShards\": \"lazy\", " + ConnectionOpeningTest.TABLES)).close());
    assertEquals("Invalid ShardSet model: schema 'S', field 'checkShards': unknown value"
        + " 'lazy'; expected one of atOpen, onFirstUse", rootMessage(e));
  }

  /** The shards whose metadata was asked for. */
  private Set<String> shardsRead() {
    final Set<String> read = new TreeSet<>();
    for (String shard : shards.names()) {
      if (shards.metadataRequests(shard) > 0) {
        read.add(shard);
      }
    }
    return read;
  }

  private int rowsOn(String shard) throws SQLException {
    try (Connection c = shards.endpoint(shard).connect()) {
      return Integer.parseInt(ShardFixture.rows(c, "SELECT COUNT(*) FROM T").get(0));
    }
  }

  private static List<Object[]> rows() {
    final List<Object[]> rows = new ArrayList<>();
    for (int k = 0; k < ROWS; k++) {
      rows.add(new Object[] {k, k % 7 == 0 ? null : "v" + k});
    }
    return rows;
  }

  /** The message of the outermost cause that says what went wrong, under the JDBC layers'
   * own wrapping. */
  private static String rootMessage(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      final String message = String.valueOf(t.getMessage());
      if (message.startsWith("shard '") || message.startsWith("Invalid ShardSet model")) {
        return message;
      }
    }
    return String.valueOf(e.getMessage());
  }
}
