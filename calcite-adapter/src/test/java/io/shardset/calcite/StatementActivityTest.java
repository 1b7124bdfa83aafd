package io.shardset.calcite;

import io.shardset.calcite.guard.SlowStatementLog;
import io.shardset.routing.ShardRouter;
import io.shardset.testing.Connector;
import io.shardset.testing.CountingShards;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The statements of {@code jdbc:shardset:} connections as the {@code SHARDSET} tables show
 * them: each shard's SQL, state and rows of a connection's last statement, checked against
 * what the counting shards received; running statements listed, by user, and canceled by number
 * from another connection; and the slow-statement log.
 */
class StatementActivityTest {
  private static final String[] DDL = {"CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR(20))"};
  private static final String TABLES = "\"tables\": ["
      + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]";
  private static final int ROWS = 40;

  private ShardFixture fixture;
  private ShardRouter router;

  @BeforeEach void load() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    router = fixture.loadNumbered(TABLES, "T", ROWS);
  }

  @AfterEach void close() throws SQLException {
    fixture.close();
  }

  private Connection open(String... properties) throws SQLException {
    final Properties info = Connector.info(fixture.model(TABLES));
    for (int i = 0; i < properties.length; i += 2) {
      info.setProperty(properties[i], properties[i + 1]);
    }
    return DriverManager.getConnection("jdbc:shardset:", info);
  }

  private String shardOf(long key) {
    return "s" + router.shardOf(List.of(key)).orElseThrow();
  }

  private static List<List<Object>> rows(Connection connection, String sql)
      throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        final List<Object> row = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.add(rs.getObject(i));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  private static int drain(ResultSet rs) throws SQLException {
    int count = 0;
    while (rs.next()) {
      count++;
    }
    return count;
  }

  /** LAST_STATEMENT's rows by shard: state, rows and SQL. */
  private static Map<String, String> lastStatement(Connection connection) throws SQLException {
    final Map<String, String> byShard = new TreeMap<>();
    for (List<Object> row : rows(connection,
        "SELECT SHARD, STATE, ROWS_READ, SQL_TEXT, ELAPSED_MS FROM SHARDSET.LAST_STATEMENT")) {
      assertTrue(((Number) row.get(4)).doubleValue() >= 0, row.toString());
      byShard.put((String) row.get(0), row.get(1) + " " + row.get(2) + " " + row.get(3));
    }
    return byShard;
  }

  /** What the counting shards received, as LAST_STATEMENT shows it. */
  private Map<String, String> received(Map<String, Long> rowsByShard) {
    final Map<String, String> byShard = new TreeMap<>();
    final CountingShards shards = fixture.shards();
    rowsByShard.forEach((shard, rows) -> {
      // A write's two-phase commit follows its statement.
      final List<CountingShards.Execution> executions = shards.executions(shard).stream()
          .filter(e -> !e.sql().startsWith("PREPARE COMMIT") && !e.sql().startsWith("COMMIT"))
          .toList();
      assertEquals(1, executions.size(), shard + ": " + executions);
      byShard.put(shard, "ok " + rows + " " + executions.get(0).sql());
    });
    return byShard;
  }

  @Test void lastStatementShowsWhatEachShardGotAndReturned() throws SQLException {
    try (Connection connection = open()) {
      fixture.shards().resetCounters();
      try (Statement s = connection.createStatement();
           ResultSet rs = s.executeQuery("SELECT K, V FROM T")) {
        assertEquals(ROWS, drain(rs));
      }
      final Map<String, Long> perShard = new LinkedHashMap<>();
      for (long k = 1; k <= ROWS; k++) {
        perShard.merge(shardOf(k), 1L, Long::sum);
      }
      final Map<String, String> expected = received(perShard);
      assertEquals(4, expected.size());
      assertEquals(expected, lastStatement(connection));
      // Reading the table does not make it the last statement: it shows the same again.
      assertEquals(expected, lastStatement(connection));

      fixture.shards().resetCounters();
      try (PreparedStatement p = connection.prepareStatement("SELECT V FROM T WHERE K = ?")) {
        p.setLong(1, 7);
        try (ResultSet rs = p.executeQuery()) {
          assertEquals(1, drain(rs));
        }
      }
      assertEquals(received(Map.of(shardOf(7), 1L)), lastStatement(connection));
    }
  }

  @Test void aStatementThatReachesNoShardLeavesNoShardRows() throws SQLException {
    try (Connection connection = open()) {
      assertEquals(List.of(List.of(1)), rows(connection, "SELECT 1"));
      assertEquals(Map.of(), lastStatement(connection));
    }
  }

  @Test void runningStatementsAreListedUntilTheirRowsClose() throws SQLException {
    try (Connection running = open("user", "ann");
         Connection other = open("user", "bob", "statements", "own");
         Connection operator = open("user", "bob");
         Statement s = running.createStatement()) {
      final String sql = "SELECT K, V FROM T WHERE V <> 'x'";
      final long id;
      try (ResultSet rs = s.executeQuery(sql)) {
        assertTrue(rs.next());
        final List<List<Object>> listed = rows(operator, "SELECT ID, USER_NAME, STATE, SHARDS,"
            + " SHARD_STATEMENTS, ROWS_READ, SQL_TEXT FROM SHARDSET.STATEMENTS WHERE SQL_TEXT = '"
            + sql.replace("'", "''") + "'");
        assertEquals(1, listed.size(), listed.toString());
        final List<Object> row = listed.get(0);
        id = ((Number) row.get(0)).longValue();
        assertEquals(List.of("ann", "running", "s0,s1,s2,s3", 4, (long) ROWS, sql),
            row.subList(1, 7));
        assertEquals(List.of(List.of(4L, (long) ROWS)), rows(operator,
            "SELECT COUNT(*), SUM(ROWS_READ) FROM SHARDSET.STATEMENT_SHARDS"
                + " WHERE STATEMENT_ID = " + id));
        // A connection that sees its own user's statements alone sees none of ann's.
        assertEquals(List.of(), rows(other,
            "SELECT ID FROM SHARDSET.STATEMENTS WHERE USER_NAME = 'ann'"));
        assertEquals(List.of(), rows(other,
            "SELECT * FROM SHARDSET.STATEMENT_SHARDS WHERE STATEMENT_ID = " + id));
      }
      assertEquals(List.of(), rows(operator,
          "SELECT ID FROM SHARDSET.STATEMENTS WHERE ID = " + id));
    }
  }

  @Test void cancelByNumberFromAnotherConnectionStopsTheStatement() throws SQLException {
    try (Connection running = open("user", "ann");
         Connection bob = open("user", "bob", "statements", "own");
         Connection ann = open("user", "ann", "statements", "own");
         Statement s = running.createStatement();
         ResultSet rs = s.executeQuery("SELECT K, V FROM T")) {
      assertTrue(rs.next());
      final long id = ((Number) rows(ann, "SELECT ID FROM SHARDSET.STATEMENTS"
          + " WHERE SQL_TEXT = 'SELECT K, V FROM T'").get(0).get(0)).longValue();
      // Another user's, unless the connection sees every user's; an unknown number.
      assertEquals(List.of(List.of(false)), rows(bob, "SELECT SHARDSET.CANCEL(" + id + ")"));
      assertEquals(List.of(List.of(false)),
          rows(ann, "SELECT SHARDSET.CANCEL(" + (id + 1000) + ")"));
      assertEquals(List.of(List.of(true)), rows(ann, "SELECT shardset.cancel(" + id + ")"));
      assertEquals(List.of(List.of(false)), rows(ann, "SELECT SHARDSET.CANCEL(" + id + ")"));
      final SQLException e = assertThrows(SQLException.class, () -> drain(rs));
      assertEquals("Statement canceled", e.getMessage());
      // The cancel stopped that execution, not the statement: it runs again.
      try (ResultSet again = s.executeQuery("SELECT K, V FROM T")) {
        assertEquals(ROWS, drain(again));
      }
      // A statement cannot cancel itself.
      assertEquals(List.of(List.of(false)), rows(ann, "SELECT SHARDSET.CANCEL(ID)"
          + " FROM SHARDSET.STATEMENTS WHERE SQL_TEXT LIKE 'SELECT SHARDSET.CANCEL(ID)%'"));
    }
  }

  /**
   * Writes end their tracking when their count is read, and a pushed DELETE shows what each
   * shard got and how many rows it deleted.
   */
  @Test void writesAreTrackedUntilTheirCountAndShowTheirShards() throws SQLException {
    try (Connection connection = open(); Statement s = connection.createStatement()) {
      for (int i = 0; i < 3; i++) {
        assertEquals(1, s.executeUpdate("UPDATE T SET V = 'w' WHERE K = " + (i + 1)));
      }
      assertEquals(List.of(List.of(1L)),
          rows(connection, "SELECT COUNT(*) FROM SHARDSET.STATEMENTS"));
      fixture.shards().resetCounters();
      assertEquals(ROWS / 2, s.executeUpdate("DELETE FROM T WHERE K > " + ROWS / 2));
      final Map<String, Long> perShard = new TreeMap<>();
      for (long k = ROWS / 2 + 1; k <= ROWS; k++) {
        perShard.merge(shardOf(k), 1L, Long::sum);
      }
      assertEquals(received(perShard), lastStatement(connection));
      try (PreparedStatement p = connection.prepareStatement("DELETE FROM T WHERE K = ?")) {
        p.setLong(1, 1);
        assertEquals(1, p.executeUpdate());
      }
      assertEquals(List.of(List.of(1L)),
          rows(connection, "SELECT COUNT(*) FROM SHARDSET.STATEMENTS"));
    }
  }

  @Test void cancelIsNotRunWhilePlanning() throws SQLException {
    try (Connection connection = open();
         PreparedStatement p = connection.prepareStatement("SELECT SHARDSET.CANCEL(?)")) {
      p.setLong(1, -1);
      try (ResultSet rs = p.executeQuery()) {
        assertTrue(rs.next());
        assertFalse(rs.getBoolean(1));
      }
      assertEquals("EnumerableCalc", rows(connection, "EXPLAIN PLAN FOR SELECT SHARDSET.CANCEL(1)")
          .get(0).get(0).toString().substring(0, 14));
    }
  }

  @Test void slowStatementsAreLoggedOnceWithTheirShards() throws SQLException {
    final ByteArrayOutputStream log = new ByteArrayOutputStream();
    final PrintStream err = System.err;
    try (Connection slow = open("slowQueryMillis", "5");
         Connection literals = open("slowQueryMillis", "5", "slowQueryLiterals", "true");
         Connection off = open();
         PrintStream capture = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      System.setErr(capture);
      try {
        readSlowly(slow, "SELECT K FROM T WHERE V <> 'secret 42'");
        readSlowly(literals, "SELECT K FROM T WHERE V <> 'plain 43'");
        readSlowly(off, "SELECT K FROM T WHERE V <> 'unlogged'");
      } finally {
        System.setErr(err);
      }
    }
    final String text = log.toString(StandardCharsets.UTF_8);
    final String prefix = "WARN " + SlowStatementLog.LOGGER + " - slow statement ";
    assertEquals(2, text.split(java.util.regex.Pattern.quote(prefix), -1).length - 1, text);
    assertTrue(text.contains("shard statements on 4 shards [s0, s1, s2, s3], 40 rows from"
        + " shards: SELECT K FROM T WHERE V <> '?'"), text);
    assertFalse(text.contains("secret"), text);
    assertTrue(text.contains("SELECT K FROM T WHERE V <> 'plain 43'"), text);
    assertFalse(text.contains("unlogged"), text);
    for (String shard : List.of("s0", "s1", "s2", "s3")) {
      assertTrue(text.contains("\n  shard " + shard + ": "), text);
    }
  }

  /** Reads the rows, the last one not before 6 ms have passed since executing. */
  private static void readSlowly(Connection connection, String sql) throws SQLException {
    final long started = System.nanoTime();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next());
      final long end = started + TimeUnit.MILLISECONDS.toNanos(6);
      for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
      assertEquals(ROWS - 1, drain(rs));
    }
  }

  @Test void badSettingsFailTheConnection() {
    assertEquals("connection property slowQueryMillis: expected a number of milliseconds (0 or"
        + " more), got 'soon'",
        assertThrows(SQLException.class, () -> open("slowQueryMillis", "soon").close())
            .getMessage());
    assertEquals("connection property statements: expected all or own, got 'mine'",
        assertThrows(SQLException.class, () -> open("statements", "mine").close())
            .getMessage());
  }
}
