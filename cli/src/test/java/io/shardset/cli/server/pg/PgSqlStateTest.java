package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The SQLStates of failed statements: the same statements fail with one code on one
 * PostgreSQL database, and with the same code when ShardSet runs them over PostgreSQL shards
 * and its code is sent as a PostgreSQL server would send it.
 */
class PgSqlStateTest {
  private static final String[] DDL = {
      "CREATE TABLE T (K INT PRIMARY KEY, V VARCHAR(10) NOT NULL, N SMALLINT)"};
  private static final List<String> FAILING = List.of(
      "SELECT * FROM MISSING",
      "SELECT NOPE FROM T",
      "SELEC 1",
      "SELECT K / 0 FROM T WHERE K = 1",
      "SELECT CAST('abc' AS INTEGER) FROM T WHERE K = 1",
      "INSERT INTO T (K, V) VALUES (2, NULL)",
      "INSERT INTO T (K, V) VALUES (1, 'again')",
      "UPDATE T SET N = 40000 WHERE K = 1");

  @Test void shardSetsCodesAsPostgresqlsOwn() throws Exception {
    try (ShardFixture fixture = ShardFixture.create(Backend.POSTGRES, 2, DDL)) {
      try (Statement s = fixture.oracle().createStatement()) {
        s.execute("INSERT INTO T VALUES (1, 'one', 1)");
      }
      final String model = fixture.model("\"tables\": [{\"name\": \"T\","
          + " \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]");
      final List<String> postgresql = new ArrayList<>();
      final List<String> shardSet = new ArrayList<>();
      try (Connection c = Connector.SHARDSET.open(model)) {
        try (Statement s = c.createStatement()) {
          s.execute("INSERT INTO T VALUES (1, 'one', 1)");
        }
        for (String sql : FAILING) {
          postgresql.add(sql + ": " + sqlState(fixture.oracle(), sql));
          shardSet.add(sql + ": " + PgSqlState.of(sqlState(c, sql)));
        }
      }
      assertEquals(postgresql, shardSet);
    }
  }

  /**
   * Codes the statements above do not reach: a cast that ShardSet's own evaluation fails
   * (22018) is PostgreSQL's 22P02; a missing or malformed code is an internal error.
   */
  @Test void aMissingOrMalformedCodeIsAnInternalError() {
    assertEquals("22P02", PgSqlState.of("22018"));
    assertEquals("XX000", PgSqlState.of(null));
    assertEquals("XX000", PgSqlState.of("HY000"));
    assertEquals("XX000", PgSqlState.of("42"));
    assertEquals("XX000", PgSqlState.of("4200x"));
    assertEquals("25P02", PgSqlState.of("25P02"));
  }

  /** The SQLState the statement fails with on a connection, its rows read. */
  private static String sqlState(Connection c, String sql) {
    try (Statement s = c.createStatement()) {
      if (s.execute(sql)) {
        // ShardSet's shard statements run as the rows are read.
        try (ResultSet rs = s.getResultSet()) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
      }
      return "no failure";
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }
}
