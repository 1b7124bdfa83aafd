package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.CountingShards;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code "checkShards": "onFirstUse"} on PostgreSQL shards, whose names are folded to lower
 * case: the shards taken from the first one answer as the unsharded database does, and a
 * shard whose table is another one's as the first shard's SQL names it fails when reached.
 */
class PostgresShardCheckTest {
  private static final String MODEL = "\"checkShards\": \"onFirstUse\", \"tables\": ["
      + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]";

  private ShardFixture fixture;
  private CountingShards shards;

  @BeforeEach void createShards() throws SQLException {
    fixture = ShardFixture.create(Backend.POSTGRES, 4,
        "CREATE TABLE T (K INT PRIMARY KEY, V VARCHAR(10))");
    shards = fixture.shards();
  }

  @AfterEach void closeShards() throws SQLException {
    fixture.close();
  }

  @Test void shardsTakenFromTheFirstAnswerAsTheUnshardedDatabase() throws SQLException {
    try (Connection c = ShardFixture.connect(fixture.model(MODEL))) {
      final List<Object[]> rows = new ArrayList<>();
      for (int k = 0; k < 300; k++) {
        rows.add(new Object[] {k, k % 5 == 0 ? null : "v" + k});
      }
      fixture.load(c, "T", rows);
      for (String sql : List.of("SELECT K, V FROM T ORDER BY K",
          "SELECT V, COUNT(*) FROM T GROUP BY V ORDER BY V NULLS FIRST",
          "SELECT K FROM T WHERE K IN (7, 123, 299) ORDER BY K")) {
        assertEquals(fixture.oracleRows(sql), ShardFixture.rows(c, sql), sql);
      }
    }
  }

  @Test void aTableNamedInAnotherCaseFailsTheStatementsThatReachIt() throws SQLException {
    shards.execute("s2", "DROP TABLE T", "CREATE TABLE \"T\" (k INT PRIMARY KEY, v VARCHAR(10))");
    try (Connection c = ShardFixture.connect(fixture.model(MODEL))) {
      final SQLException e = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT COUNT(*) FROM T"));
      assertEquals("shard 's2' failed: Invalid ShardSet model: schema 'S', table 'T', field"
          + " 'columns': shard 's2' has the table as 'public.T' where shard 's0', read for it"
          + " when the connection opened, has 'public.t'", message(e));
      assertEquals(0, shards.statementsExecuted("s2"));
    }
  }

  private static String message(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).startsWith("shard '")) {
        return t.getMessage();
      }
    }
    return String.valueOf(e.getMessage());
  }
}
