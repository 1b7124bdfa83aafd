package io.shardset.calcite;

import io.shardset.routing.ShardRouter;
import io.shardset.testing.Connector;
import io.shardset.testing.Drivers;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scatter guardrails: the schema's, a table's and a connection's limits, deny, warn, allow and
 * maxShards, for literals (refused when the statement is prepared) and {@code ?} parameters
 * (refused when it runs), reads and writes, and the SCATTER hint; every refusal is checked to
 * reach no shard and change no row.
 */
class ScatterGuardTest {
  private static final String[] DDL = {
      "CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR(20))",
      "CREATE TABLE U (K BIGINT PRIMARY KEY, V VARCHAR(20))",
      "CREATE TABLE M (K BIGINT PRIMARY KEY, V VARCHAR(20))",
      "CREATE TABLE A (K BIGINT PRIMARY KEY, V VARCHAR(20))",
      "CREATE TABLE D (ID INTEGER PRIMARY KEY, NAME VARCHAR(10))"};
  /** The schema denies scatters; U only warns, M allows two shards, A allows any. */
  private static final String TABLES = "\"scatter\": \"deny\", \"tables\": ["
      + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},"
      + "{\"name\": \"U\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"],"
      + " \"scatter\": \"warn\"},"
      + "{\"name\": \"M\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"],"
      + " \"maxShards\": 2},"
      + "{\"name\": \"A\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"],"
      + " \"scatter\": \"allow\"},"
      + "{\"name\": \"D\", \"method\": \"duplicated\"}]";
  private static final int ROWS = 100;
  private static final String DENIED_T = "scatter denied: the statement reads S.T on all 4 of"
      + " its shards, and the scatter setting of schema S is deny; add a condition on its shard"
      + " key (K), or allow it with the hint /*+ SCATTER */";

  private ShardFixture fixture;
  private ShardRouter router;

  @BeforeEach void load() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    try (Connection connection = ShardFixture.connect(fixture.model(TABLES))) {
      final List<Object[]> rows = ShardFixture.numbered(ROWS);
      for (String table : List.of("T", "U", "M", "A")) {
        fixture.load(connection, table, rows);
      }
      fixture.load(connection, "D", List.<Object[]>of(new Object[] {1, "one"}));
      router = ShardFixture.schema(connection).table("T").router();
    }
  }

  @AfterEach void close() throws SQLException {
    fixture.close();
  }

  private Connection connect(Drivers way) throws SQLException {
    return way.connector().open(fixture.model(TABLES));
  }

  /** A key of each of the first {@code count} shards, s0 first. */
  private List<Long> keysOfShards(int count) {
    final List<Long> keys = new ArrayList<>();
    for (int shard = 0; shard < count; shard++) {
      for (long k = 1; k <= ROWS; k++) {
        if (router.shardOf(List.of(k)).orElseThrow() == shard) {
          keys.add(k);
          break;
        }
      }
    }
    return keys;
  }

  private static String inList(List<Long> keys) {
    final List<String> texts = keys.stream().map(String::valueOf).toList();
    return "(" + String.join(", ", texts) + ")";
  }

  private static int count(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int rows = 0;
      while (rs.next()) {
        rows++;
      }
      return rows;
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void schemaDenyRefusesAScanOfEveryShard(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      fixture.shards().resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> count(connection, "SELECT * FROM T WHERE V <> 'x'"));
      assertEquals("54000 " + DENIED_T, way.reason(e, "54000"));
      assertEquals(0, fixture.shards().statementsExecuted());
      // Pruned to one shard, or to three of four, it runs.
      assertEquals(1, count(connection, "SELECT * FROM T WHERE K = 7"));
      assertEquals(3, count(connection, "SELECT * FROM T WHERE K IN "
          + inList(keysOfShards(3))));
      // A duplicated table is read on one shard.
      assertEquals(1, count(connection, "SELECT * FROM D"));
    }
  }

  @Test void literalsAreRefusedWhenTheStatementIsPrepared() throws SQLException {
    try (Connection connection = connect(Drivers.SHARDSET)) {
      fixture.shards().resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> connection.prepareStatement("SELECT COUNT(*) FROM T"));
      assertEquals(DENIED_T, e.getMessage());
      assertEquals("54000", e.getSQLState());
      assertEquals(0, fixture.shards().statementsExecuted());
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void parametersAreCheckedWhenTheStatementRuns(Drivers way) throws SQLException {
    final List<Long> four = keysOfShards(4);
    try (Connection connection = connect(way);
         PreparedStatement p = connection.prepareStatement(
             "SELECT * FROM T WHERE K IN (?, ?, ?, ?)")) {
      for (int i = 0; i < 4; i++) {
        p.setLong(i + 1, four.get(i % 3));
      }
      assertEquals(3, fixture.reached(p).size());
      for (int i = 0; i < 4; i++) {
        p.setLong(i + 1, four.get(i));
      }
      fixture.shards().resetCounters();
      final SQLException e = assertThrows(SQLException.class, () -> {
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
        }
      });
      assertEquals("54000 " + DENIED_T, way.reason(e, "54000"));
      assertEquals(0, fixture.shards().statementsExecuted());
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void maxShardsOfATable(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      assertEquals(2, count(connection, "SELECT * FROM M WHERE K IN " + inList(keysOfShards(2))));
      fixture.shards().resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> count(connection, "SELECT * FROM M WHERE K IN " + inList(keysOfShards(3))));
      assertEquals("54000 scatter denied: the statement reads S.M on 3 of its 4 shards, more"
          + " than the scatter setting of table S.M allows (maxShards 2); add a condition on"
          + " its shard key (K), or allow it with the hint /*+ SCATTER */", way.reason(e, "54000"));
      assertEquals(0, fixture.shards().statementsExecuted());
      assertEquals(ROWS, count(connection, "SELECT * FROM A"));
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void scatterHintAllows(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      assertEquals(ROWS, count(connection, "SELECT /*+ SCATTER */ * FROM T"));
      assertEquals(ROWS, count(connection, "SELECT * FROM T /*+ SCATTER */ WHERE V <> 'x'"));
      assertEquals(3, count(connection,
          "SELECT /*+ SCATTER */ * FROM M WHERE K IN " + inList(keysOfShards(3))));
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void joinIsRefusedByTheStricterTable(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      fixture.shards().resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> count(connection, "SELECT A.V FROM A JOIN T ON A.K = T.K"));
      assertEquals("54000 " + DENIED_T, way.reason(e, "54000"));
      assertEquals(0, fixture.shards().statementsExecuted());
      assertEquals(ROWS, count(connection, "SELECT /*+ SCATTER */ A.V FROM A JOIN T ON A.K = T.K"));
      // A table that only warns, read first, does not hide one that denies.
      fixture.shards().resetCounters();
      final SQLException warned = assertThrows(SQLException.class,
          () -> count(connection, "SELECT U.V FROM U JOIN T ON U.K = T.K"));
      assertEquals("54000 " + DENIED_T, way.reason(warned, "54000"));
      assertEquals(0, fixture.shards().statementsExecuted());
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void writesAreGuardedToo(Drivers way) throws SQLException {
    try (Connection connection = connect(way); Statement s = connection.createStatement()) {
      fixture.shards().resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> s.executeUpdate("DELETE FROM T WHERE V <> 'x'"));
      assertEquals("54000 " + DENIED_T, way.reason(e, "54000"));
      assertEquals(0, fixture.shards().statementsExecuted());
      assertEquals(ROWS, count(connection, "SELECT /*+ SCATTER */ * FROM T"));
      assertEquals(1, s.executeUpdate("UPDATE T SET V = 'w' WHERE K = 3"));
      assertEquals(ROWS, s.executeUpdate("UPDATE T /*+ SCATTER */ SET V = 'all'"));
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void warnRunsAndLogsOncePerStatement(Drivers way) throws SQLException {
    final ByteArrayOutputStream log = new ByteArrayOutputStream();
    final PrintStream err = System.err;
    try (Connection connection = connect(way);
         PrintStream capture = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      System.setErr(capture);
      try {
        for (int i = 0; i < 3; i++) {
          assertEquals(ROWS, count(connection, "SELECT * FROM U"));
        }
        assertEquals(ROWS, count(connection, "SELECT K FROM U WHERE V <> 'secret 42'"));
      } finally {
        System.setErr(err);
      }
    }
    final String text = log.toString(StandardCharsets.UTF_8);
    final String warning = "WARN io.shardset.calcite.guard.ScatterGuard - scatter: the"
        + " statement reads S.U on all 4 of its shards, and the scatter setting of table S.U"
        + " is warn (logged once for this statement); the shards are sent: SELECT ";
    assertEquals(2, text.split(java.util.regex.Pattern.quote(warning), -1).length - 1, text);
    // The shards' SQL is logged with its literals masked (jdbc:shardset: sends this one as a
    // parameter already).
    assertTrue(text.contains(warning + "\"K\" FROM \"U\" WHERE \"V\" <> "
        + (way == Drivers.SHARDSET ? "?" : "'?'")), text);
    assertFalse(text.contains("secret"), text);
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void connectionSettingReplacesTheModels(Drivers way) throws SQLException {
    final Properties allow = info("allow", null);
    try (Connection connection = open(way, allow)) {
      assertEquals(ROWS, count(connection, "SELECT * FROM T"));
    }
    try (Connection connection = open(way, info(null, "1"))) {
      fixture.shards().resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> count(connection, "SELECT * FROM A WHERE K IN " + inList(keysOfShards(2))));
      assertEquals("54000 scatter denied: the statement reads S.A on 2 of its 4 shards, more"
          + " than the scatter setting of the connection allows (maxShards 1); add a condition"
          + " on its shard key (K), or allow it with the hint /*+ SCATTER */", way.reason(e, "54000"));
      assertEquals(0, fixture.shards().statementsExecuted());
    }
  }

  @Test void badConnectionSettingFailsTheConnection() {
    final SQLException mode = assertThrows(SQLException.class,
        () -> open(Drivers.SHARDSET, info("sometimes", null)).close());
    assertEquals("connection property scatter: unknown value 'sometimes'; expected one of"
        + " allow, warn, deny", mode.getMessage());
    final SQLException max = assertThrows(SQLException.class,
        () -> open(Drivers.SHARDSET, info("deny", "0")).close());
    assertEquals("connection property maxShards: expected a positive integer, got '0'",
        max.getMessage());
  }

  @Test void badModelSettingNamesItsPlace() {
    final String bad = TABLES.replace("\"scatter\": \"warn\"", "\"scatter\": \"often\"");
    final Exception e = assertThrows(Exception.class,
        () -> Connector.SHARDSET.open(fixture.model(bad)).close());
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertEquals("Invalid ShardSet model: schema 'S', table 'U', field 'scatter': unknown"
        + " value 'often'; expected one of allow, warn, deny", root.getMessage());
  }

  private Properties info(String mode, String maxShards) {
    final Properties info = Connector.info(fixture.model(TABLES));
    if (mode != null) {
      info.setProperty("scatter", mode);
    }
    if (maxShards != null) {
      info.setProperty("maxShards", maxShards);
    }
    return info;
  }

  private static Connection open(Drivers way, Properties info) throws SQLException {
    return DriverManager.getConnection(way.url(), info);
  }
}
