package io.shardset.calcite.jdbc;

import io.shardset.execution.ShardStates;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Fractions written to integer columns, and values no column can hold, through ShardSet and
 * straight into the unsharded oracle of the same backend: the same statements give the same
 * rows, or fail with the same SQLState. A fraction rounds half away from zero, as the
 * databases round a DECIMAL, in a literal, a parameter and an UPDATE alike. The oracle's
 * states are ShardSet's names for them ({@link ShardStates}): H2 says 22004 for a value out
 * of range in a column, ShardSet 22003, as PostgreSQL and MariaDB do.
 */
class ValueConversionsTest {
  /** Fractions around every rounding edge, and the edges of INTEGER. */
  private static final List<String> FRACTIONS = List.of("0.5", "1.5", "2.5", "-0.5", "-1.5",
      "-2.5", "4.7", "-4.7", "4.4999", "-4.4999", "0.49999", "7", "-7", "0",
      "2147483647.4", "-2147483648.4", "2147483646.5", "-2147483647.5", "2147483647.5",
      "-2147483648.5", "99999999999");

  private ShardFixture fixture;
  private String model;

  private void open(Backend backend) throws SQLException {
    fixture = ShardFixture.create(backend, 3,
        "CREATE TABLE T (ID BIGINT PRIMARY KEY, V INTEGER, W SMALLINT, S VARCHAR(10))");
    model = fixture.model("\"chunks\": 30, \"tables\": [\n"
        + "  {\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]");
  }

  @AfterEach void close() throws SQLException {
    if (fixture != null) {
      fixture.close();
    }
  }

  /** What a statement did: its count, or the SQLState it failed with. */
  private static String outcome(Statement statement, String sql) {
    try {
      return "count " + statement.executeUpdate(sql);
    } catch (SQLException e) {
      return "state " + ShardStates.of(e);
    }
  }

  private static String outcome(PreparedStatement statement) {
    try {
      return "count " + statement.executeUpdate();
    } catch (SQLException e) {
      return "state " + e.getSQLState();
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void fractionsInLiteralsRoundAsTheDatabaseRoundsThem(Backend backend) throws SQLException {
    open(backend);
    final List<String> shardSet = new ArrayList<>();
    final List<String> oracle = new ArrayList<>();
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement();
         Statement o = fixture.oracle().createStatement()) {
      for (int i = 0; i < FRACTIONS.size(); i++) {
        final String insert = "INSERT INTO T (ID, V) VALUES (" + i + ", " + FRACTIONS.get(i)
            + ")";
        shardSet.add(FRACTIONS.get(i) + ": " + outcome(s, insert));
        oracle.add(FRACTIONS.get(i) + ": " + outcome(o, insert));
        if (!oracle.get(oracle.size() - 1).endsWith("count 1")) {
          // PostgreSQL folds an UPDATE's constant even when no row matches.
          continue;
        }
        final String update = "UPDATE T SET W = " + FRACTIONS.get(i) + " / 100000 WHERE ID = "
            + i;
        shardSet.add(FRACTIONS.get(i) + " / 100000: " + outcome(s, update));
        oracle.add(FRACTIONS.get(i) + " / 100000: " + outcome(o, update));
      }
      assertEquals(oracle, shardSet);
      assertEquals(fixture.oracleRows("SELECT ID, V, W FROM T ORDER BY ID"),
          ShardFixture.rows(c, "SELECT ID, V, W FROM T ORDER BY ID"));
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void fractionsInParametersOfIntegerColumnsRoundAsLiteralsDo(Backend backend)
      throws SQLException {
    open(backend);
    final List<String> shardSet = new ArrayList<>();
    final List<String> oracle = new ArrayList<>();
    try (Connection c = Connector.SHARDSET.open(model);
         PreparedStatement p = c.prepareStatement("INSERT INTO T (ID, V) VALUES (?, ?)");
         Statement o = fixture.oracle().createStatement()) {
      for (int i = 0; i < FRACTIONS.size(); i++) {
        p.setLong(1, i);
        p.setBigDecimal(2, new BigDecimal(FRACTIONS.get(i)));
        shardSet.add(FRACTIONS.get(i) + ": " + outcome(p));
        oracle.add(FRACTIONS.get(i) + ": " + outcome(o,
            "INSERT INTO T (ID, V) VALUES (" + i + ", " + FRACTIONS.get(i) + ")"));
      }
      assertEquals(oracle, shardSet);
      assertEquals(fixture.oracleRows("SELECT ID, V FROM T ORDER BY ID"),
          ShardFixture.rows(c, "SELECT ID, V FROM T ORDER BY ID"));
    }
  }

  /**
   * A string longer than its column fails with 22001 as the database's own statement fails,
   * whether a literal, a parameter or a value computed row by row (Calcite would cut each to
   * the column's length); trailing spaces beyond the length are dropped, as PostgreSQL drops
   * them.
   */
  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void stringsLongerThanTheirColumnFailAsTheDatabaseFails(Backend backend)
      throws SQLException {
    open(backend);
    final List<String> statements = List.of(
        "INSERT INTO T (ID, S) VALUES (1, 'abcdefghij')",
        "INSERT INTO T (ID, S) VALUES (2, 'abcdefghijk')",
        "INSERT INTO T (ID, S) VALUES (3, 'abc'), (4, 'abcdefghijkl')",
        "UPDATE T SET S = 'abcdefghijkl' WHERE ID = 1",
        "UPDATE T SET S = S || 'x' WHERE ID = 1",
        "UPDATE T SET S = S || 'x', V = V + 1 WHERE ID = 1",
        "UPDATE T SET S = 'ab', V = 2147483647 WHERE ID = 1",
        "UPDATE T SET S = S || 'x', V = V + 1 WHERE ID = 1");
    final List<String> shardSet = new ArrayList<>();
    final List<String> oracle = new ArrayList<>();
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement();
         Statement o = fixture.oracle().createStatement()) {
      for (String sql : statements) {
        shardSet.add(sql + ": " + stateClass(outcome(s, sql)));
        oracle.add(sql + ": " + stateClass(outcome(o, sql)));
      }
      for (String value : List.of("abcdefghij", "abcdefghijk", "abc       ")) {
        for (Connection connection : List.of(c, fixture.oracle())) {
          try (PreparedStatement p = connection.prepareStatement(
              "UPDATE T SET S = ? WHERE ID = 1")) {
            p.setString(1, value);
            (connection == c ? shardSet : oracle).add("? = '" + value + "': "
                + stateClass(outcome(p)));
          }
        }
      }
      assertEquals(oracle, shardSet);
      assertEquals(fixture.oracleRows("SELECT ID, V, TRIM(S) FROM T ORDER BY ID"),
          ShardFixture.rows(c, "SELECT ID, V, TRIM(S) FROM T ORDER BY ID"));
    }
  }

  /** An outcome with only the class of its state: the databases' states differ within one. */
  private static String stateClass(String outcome) {
    return outcome.startsWith("state ") ? outcome.substring(0, "state ".length() + 2)
        : outcome;
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES"})
  void valuesNoColumnCanHoldFailWithTheirOwnSqlState(Backend backend) throws SQLException {
    open(backend);
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException text = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO T (ID, V) VALUES (1, 'abc')"));
      assertEquals("22018", text.getSQLState(), text.getMessage());
      final SQLException range = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO T (ID, W) VALUES (1, 40000)"));
      assertEquals("22003", range.getSQLState(), range.getMessage());
      final SQLException missingKey = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO T (V) VALUES (1)"));
      assertEquals("23502", missingKey.getSQLState(), missingKey.getMessage());
      assertEquals(List.of("0"), ShardFixture.rows(c, "SELECT COUNT(*) FROM T"));
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void aFailedBatchIsABatchUpdateExceptionWithTheShardsStateAndWritesNothing(Backend backend)
      throws SQLException {
    open(backend);
    try (Connection c = Connector.SHARDSET.open(model);
         PreparedStatement p = c.prepareStatement("INSERT INTO T (ID, V) VALUES (?, 1)")) {
      c.createStatement().executeUpdate("INSERT INTO T (ID, V) VALUES (3, 0)");
      for (long id : new long[] {1, 2, 3, 4}) {
        p.setLong(1, id);
        p.addBatch();
      }
      final BatchUpdateException e = assertThrows(BatchUpdateException.class, p::executeBatch);
      // MariaDB says 23000 for every broken constraint; ShardSet names the kind.
      assertEquals("23505", e.getSQLState(), e.getMessage());
      assertEquals(0, e.getLargeUpdateCounts().length);
      assertEquals(List.of("3, 0"), ShardFixture.rows(c, "SELECT ID, V FROM T ORDER BY ID"));
    }
  }
}
