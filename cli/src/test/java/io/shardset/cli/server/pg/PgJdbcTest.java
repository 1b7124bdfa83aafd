package io.shardset.cli.server.pg;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.prepare.PlanCache;
import io.shardset.testing.Backend;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.PGConnection;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pgJDBC through the server's PostgreSQL port, against the embedded driver on the same model:
 * the same queries give the same rows in the simple protocol, the extended one in text and
 * in binary, over H2 and PostgreSQL shards; parameters of every common type; results read in
 * pieces; transactions, a failed one, and a batch that fails as a whole; SQLStates.
 */
class PgJdbcTest {
  static final String DDL = "CREATE TABLE ITEMS (ID INT PRIMARY KEY, GRP INT NOT NULL,"
      + " NAME VARCHAR(40), PRICE DECIMAL(12, 2), RATIO DOUBLE PRECISION, QTY BIGINT,"
      + " SMALL SMALLINT, FLAG BOOLEAN, SOLD_ON DATE, AT_TS TIMESTAMP)";
  static final String TABLES =
      "{\"name\": \"ITEMS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}";
  private static final int ROWS = 120;
  private static final Map<Backend, PgServerFixture> SERVERS = new EnumMap<>(Backend.class);
  /** The PostgreSQL database whose behavior a batch's is compared with. */
  private static String reference;

  /** How pgJDBC talks to the server. */
  enum Mode {
    /** Every statement in a simple Query message, values in text. */
    SIMPLE("&preferQueryMode=simple"),
    /** Parse, Bind, Execute, values in text (pgJDBC's first runs of a statement). */
    EXTENDED("&prepareThreshold=0"),
    /** Named statements, values in binary wherever pgJDBC reads a type so. */
    BINARY("&prepareThreshold=-1");

    final String parameters;

    Mode(String parameters) {
      this.parameters = parameters;
    }
  }

  static final List<String> QUERIES = List.of(
      "SELECT * FROM ITEMS ORDER BY ID",
      "SELECT ID, NAME, PRICE FROM ITEMS WHERE GRP = 3 ORDER BY ID",
      "SELECT GRP, COUNT(*) AS N, SUM(PRICE) AS TOTAL, MIN(SOLD_ON) AS FIRST_DAY,"
          + " MAX(AT_TS) AS LAST_TS, SUM(QTY) AS QTY FROM ITEMS GROUP BY GRP ORDER BY GRP",
      "SELECT NAME, RATIO, SMALL FROM ITEMS WHERE FLAG ORDER BY ID DESC LIMIT 7",
      "SELECT ID FROM ITEMS WHERE NAME IS NULL ORDER BY ID",
      "SELECT COUNT(*) AS N FROM ITEMS WHERE PRICE > 100 AND SOLD_ON >= DATE '2024-01-01'");

  static Stream<Arguments> backendsAndModes() {
    final List<Arguments> arguments = new ArrayList<>();
    for (Backend backend : List.of(Backend.H2, Backend.POSTGRES)) {
      for (Mode mode : Mode.values()) {
        arguments.add(Arguments.of(backend, mode));
      }
    }
    return arguments.stream();
  }

  static synchronized PgServerFixture server(Backend backend) throws Exception {
    PgServerFixture server = SERVERS.get(backend);
    if (server == null) {
      if (backend == Backend.POSTGRES) {
        PostgresServer.require();
      }
      server = PgServerFixture.start(backend, 3, TABLES, DDL);
      try (Connection c = server.embedded()) {
        load(c, ROWS);
      }
      SERVERS.put(backend, server);
    }
    return server;
  }

  @AfterAll static void stop() throws SQLException {
    for (PgServerFixture server : SERVERS.values()) {
      server.close();
    }
    SERVERS.clear();
    if (reference != null) {
      PostgresServer.drop(List.of(reference));
      reference = null;
    }
  }

  /** Rows with edge values: NULLs, negatives, quotes, non-ASCII, fractions, far dates. */
  static void load(Connection c, int count) throws SQLException {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO ITEMS VALUES"
        + " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int id = 1; id <= count; id++) {
        insert.setInt(1, id);
        insert.setInt(2, id % 7);
        if (id % 11 == 0) {
          insert.setNull(3, Types.VARCHAR);
        } else {
          insert.setString(3, id % 5 == 0 ? "it's \"quoted\" ü " + id : "item " + id);
        }
        insert.setBigDecimal(4, id % 13 == 0 ? null
            : new BigDecimal(id * 37 % 1000 - 200).add(new BigDecimal("0.05")));
        insert.setDouble(5, id % 3 == 0 ? 0.1 * id : id % 3 == 1 ? 1e-5 / id : -1e20 * id);
        insert.setLong(6, id % 2 == 0 ? Long.MAX_VALUE / id : -id);
        insert.setShort(7, (short) (id % 2 == 0 ? Short.MIN_VALUE + id : id));
        if (id % 17 == 0) {
          insert.setNull(8, Types.BOOLEAN);
        } else {
          insert.setBoolean(8, id % 2 == 0);
        }
        insert.setDate(9, java.sql.Date.valueOf(
            id % 4 == 0 ? "1970-01-01" : (2020 + id % 6) + "-0" + (1 + id % 9) + "-1" + id % 10));
        insert.setTimestamp(10, Timestamp.valueOf(String.format(Locale.ROOT,
            "20%02d-12-31 23:59:%02d.%03d", id % 30, id % 60, id * 7 % 1000)));
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  @ParameterizedTest @MethodSource("backendsAndModes")
  void queriesGiveTheEmbeddedDriversRows(Backend backend, Mode mode) throws Exception {
    final PgServerFixture server = server(backend);
    try (Connection pg = server.pg(mode.parameters); Connection embedded = server.embedded()) {
      for (String sql : QUERIES) {
        // Twice: pgJDBC's second run of a statement may take another path.
        for (int run = 0; run < 2; run++) {
          assertEquals(ShardFixture.rows(embedded, sql), ShardFixture.rows(pg, sql),
              mode + " " + sql);
        }
      }
    }
  }

  /** Sets a statement's parameters, the same way on either connection. */
  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private static List<String> rows(Connection c, String sql, Binder binder)
      throws SQLException {
    try (PreparedStatement statement = c.prepareStatement(sql)) {
      binder.bind(statement);
      try (ResultSet rs = statement.executeQuery()) {
        return ShardFixture.rows(rs);
      }
    }
  }

  @ParameterizedTest @MethodSource("backendsAndModes")
  void parametersOfEveryCommonType(Backend backend, Mode mode) throws Exception {
    final PgServerFixture server = server(backend);
    final String sql = "SELECT ID, NAME FROM ITEMS WHERE GRP <> ? AND PRICE > ? AND SOLD_ON >= ?"
        + " AND AT_TS < ? AND NAME <> ? AND FLAG = ? AND QTY <> ? AND RATIO <> ?"
        + " AND SMALL <> ? ORDER BY ID";
    final List<Binder> binders = List.of(
        s -> {
          s.setInt(1, 3);
          s.setBigDecimal(2, new BigDecimal("-100.05"));
          s.setDate(3, java.sql.Date.valueOf("2021-01-01"));
          s.setTimestamp(4, Timestamp.valueOf("2025-12-31 23:59:30.5"));
          s.setString(5, "item 8");
          s.setBoolean(6, true);
          s.setLong(7, Long.MAX_VALUE / 8);
          s.setDouble(8, 0.3);
          s.setShort(9, (short) 5);
        },
        s -> {
          s.setInt(1, -1);
          s.setBigDecimal(2, BigDecimal.ZERO);
          s.setObject(3, LocalDate.of(1970, 1, 1));
          s.setObject(4, LocalDateTime.of(2029, 12, 31, 23, 59, 59, 999_000_000));
          s.setString(5, "it's \"quoted\" ü 5");
          s.setBoolean(6, false);
          s.setLong(7, -1);
          s.setDouble(8, -1e20);
          s.setShort(9, Short.MIN_VALUE);
        });
    try (Connection pg = server.pg(mode.parameters); Connection embedded = server.embedded()) {
      // pgJDBC's simple protocol sends setDate's and setTimestamp's values as literals without
      // a type and with a zone offset ('2021-01-01 +00'), which ShardSet cannot tell from
      // text: with it, dates and times go as java.time values (docs/postgresql-protocol.md).
      for (Binder binder : mode == Mode.SIMPLE ? binders.subList(1, 2) : binders) {
        for (int run = 0; run < 3; run++) {
          final List<String> expected = rows(embedded, sql, binder);
          assertTrue(!expected.isEmpty(), "a case that selects nothing tests little");
          assertEquals(expected, rows(pg, sql, binder), mode.toString());
        }
      }
      // One parameter twice, and a NULL, which matches nothing.
      final String twice = "SELECT ID FROM ITEMS WHERE ID BETWEEN ? AND ? + 3 ORDER BY ID";
      assertEquals(List.of("10", "11", "12", "13"), rows(pg, twice, s -> {
        s.setInt(1, 10);
        s.setInt(2, 10);
      }));
      assertEquals(List.of(), rows(pg, "SELECT ID FROM ITEMS WHERE NAME = ?",
          s -> s.setNull(1, Types.VARCHAR)));
    }
  }

  @ParameterizedTest @MethodSource("backendsAndModes")
  void rowsWrittenArriveOnTheirShardsWithEveryValue(Backend backend, Mode mode)
      throws Exception {
    final PgServerFixture server = server(backend);
    final int id = 1_000 + mode.ordinal();
    final String row = "SELECT * FROM ITEMS WHERE ID = " + id;
    try (Connection pg = server.pg(mode.parameters); Connection embedded = server.embedded()) {
      try (PreparedStatement insert = pg.prepareStatement(
          "INSERT INTO ITEMS VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
        insert.setInt(1, id);
        insert.setInt(2, 9);
        insert.setString(3, "new 'row' ✓");
        insert.setBigDecimal(4, new BigDecimal("-1234567890.99"));
        insert.setDouble(5, 2.5e-7);
        insert.setLong(6, Long.MIN_VALUE);
        insert.setShort(7, Short.MAX_VALUE);
        insert.setBoolean(8, true);
        if (mode == Mode.SIMPLE) {
          insert.setObject(9, LocalDate.of(2000, 2, 29));
          insert.setObject(10, LocalDateTime.of(1999, 12, 31, 23, 59, 59, 123_000_000));
        } else {
          insert.setDate(9, java.sql.Date.valueOf("2000-02-29"));
          insert.setTimestamp(10, Timestamp.valueOf("1999-12-31 23:59:59.123"));
        }
        assertEquals(1, insert.executeUpdate());
      }
      final List<String> expected = List.of(id + ", 9, new 'row' ✓, -1234567890.99, 0.00000025,"
          + " -9223372036854775808, 32767, true, 2000-02-29, 1999-12-31 23:59:59.123");
      assertEquals(expected, ShardFixture.rows(embedded, row));
      assertEquals(expected, ShardFixture.rows(pg, row));
      assertEquals(expected, server.onShards(row));
      try (Statement s = pg.createStatement()) {
        assertEquals(1, s.executeUpdate("DELETE FROM ITEMS WHERE ID = " + id));
      }
      assertEquals(List.of(), server.onShards(row));
    }
  }

  /**
   * pgJDBC's {@code getGeneratedKeys}, which appends {@code RETURNING *} or
   * {@code RETURNING "name", ...} to the INSERT, and an {@code INSERT ... RETURNING} a client
   * writes: the returned rows are the inserted rows' columns, and the rows are on the shards.
   */
  @ParameterizedTest @MethodSource("backendsAndModes")
  void generatedKeysAndReturningGiveTheInsertedColumns(Backend backend, Mode mode)
      throws Exception {
    final PgServerFixture server = server(backend);
    final int id = 2_000 + 10 * mode.ordinal();
    try (Connection pg = server.pg(mode.parameters)) {
      try (PreparedStatement insert = pg.prepareStatement(
          "INSERT INTO items (id, grp, name) VALUES (?, ?, ?)",
          Statement.RETURN_GENERATED_KEYS)) {
        insert.setInt(1, id);
        insert.setInt(2, 4);
        insert.setString(3, "keyed");
        assertEquals(1, insert.executeUpdate());
        try (ResultSet keys = insert.getGeneratedKeys()) {
          assertEquals(10, keys.getMetaData().getColumnCount());
          assertEquals(List.of(id + ", 4, keyed, NULL, NULL, NULL, NULL, NULL, NULL, NULL"),
              ShardFixture.rows(keys));
        }
      }
      try (PreparedStatement insert = pg.prepareStatement(
          "INSERT INTO items (id, grp) VALUES (?, ?)", new String[] {"grp", "id"})) {
        insert.setInt(1, id + 1);
        insert.setInt(2, 5);
        assertEquals(1, insert.executeUpdate());
        try (ResultSet keys = insert.getGeneratedKeys()) {
          assertEquals("grp", keys.getMetaData().getColumnName(1));
          assertEquals(List.of("5, " + (id + 1)), ShardFixture.rows(keys));
        }
      }
      try (Statement s = pg.createStatement()) {
        try (ResultSet returned = s.executeQuery("INSERT INTO \"ITEMS\" (id, grp, name)"
            + " VALUES (" + (id + 2) + ", 6, 'a'), (" + (id + 3) + ", 6, 'b')"
            + " RETURNING name, \"ID\"")) {
          assertEquals(List.of("a, " + (id + 2), "b, " + (id + 3)),
              ShardFixture.sorted(ShardFixture.rows(returned)));
        }
        final SQLException expression = assertThrows(SQLException.class, () -> s.executeQuery(
            "INSERT INTO items (id, grp) VALUES (" + (id + 4) + ", 1) RETURNING id + 1"));
        assertEquals("0A000", expression.getSQLState(), expression.getMessage());
        final SQLException unknown = assertThrows(SQLException.class, () -> s.executeQuery(
            "INSERT INTO items (id, grp) VALUES (" + (id + 4) + ", 1) RETURNING nope"));
        assertEquals("42703", unknown.getSQLState(), unknown.getMessage());
      }
      final String rows = "SELECT ID, GRP FROM ITEMS WHERE ID BETWEEN " + id + " AND "
          + (id + 9);
      assertEquals(List.of(id + ", 4", (id + 1) + ", 5", (id + 2) + ", 6", (id + 3) + ", 6"),
          ShardFixture.sorted(server.onShards(rows)));
      try (Statement s = pg.createStatement()) {
        s.executeUpdate("DELETE FROM items WHERE id BETWEEN " + id + " AND " + (id + 9));
      }
    }
  }

  @ParameterizedTest @MethodSource("backendsAndModes")
  void aResultReadInPiecesIsWhole(Backend backend, Mode mode) throws Exception {
    final PgServerFixture server = server(backend);
    final String sql = "SELECT * FROM ITEMS ORDER BY ID";
    try (Connection pg = server.pg(mode.parameters); Connection embedded = server.embedded()) {
      pg.setAutoCommit(false);
      try (Statement s = pg.createStatement()) {
        s.setFetchSize(7);
        try (ResultSet rs = s.executeQuery(sql)) {
          assertEquals(ShardFixture.rows(embedded, sql), ShardFixture.rows(rs));
        }
      }
      // Two results read in turns, each in pieces.
      try (Statement a = pg.createStatement(); Statement b = pg.createStatement()) {
        a.setFetchSize(5);
        b.setFetchSize(3);
        try (ResultSet ra = a.executeQuery("SELECT ID FROM ITEMS WHERE ID <= 20 ORDER BY ID");
             ResultSet rb = b.executeQuery("SELECT ID FROM ITEMS WHERE ID > 100 ORDER BY ID")) {
          final List<Integer> read = new ArrayList<>();
          while (ra.next() & rb.next()) {
            read.add(ra.getInt(1));
            read.add(rb.getInt(1));
          }
          assertEquals(List.of(1, 101, 2, 102, 3, 103), read.subList(0, 6));
          assertEquals(40, read.size());
        }
      }
      pg.commit();
    }
  }

  @ParameterizedTest @MethodSource("backendsAndModes")
  void transactionsCommitRollBackAndFailAsPostgresqlsDo(Backend backend, Mode mode)
      throws Exception {
    final PgServerFixture server = server(backend);
    final int id = 2_000 + 10 * mode.ordinal();
    final String mine = "SELECT ID FROM ITEMS WHERE ID BETWEEN " + id + " AND " + (id + 9);
    try (Connection pg = server.pg(mode.parameters)) {
      pg.setAutoCommit(false);
      try (Statement s = pg.createStatement()) {
        s.executeUpdate(insert(id));
        // The transaction sees its own write; the shards hold it only once committed.
        assertEquals(List.of(Integer.toString(id)), ShardFixture.rows(pg, mine));
        pg.rollback();
        assertEquals(List.of(), server.onShards(mine));
        s.executeUpdate(insert(id + 1));
        s.executeUpdate(insert(id + 2));
        pg.commit();
        assertEquals(List.of(id + 1 + "", id + 2 + ""), server.onShards(mine));
        // A failed statement fails the transaction until it ends.
        s.executeUpdate(insert(id + 3));
        final SQLException duplicate = assertThrows(SQLException.class,
            () -> s.executeUpdate(insert(id + 1)));
        assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());
        final SQLException aborted = assertThrows(SQLException.class,
            () -> s.executeQuery("SELECT 1"));
        assertEquals("25P02", aborted.getSQLState());
        pg.commit(); // PostgreSQL rolls a failed transaction back at COMMIT
        assertEquals(List.of(id + 1 + "", id + 2 + ""), server.onShards(mine));
      }
      pg.setAutoCommit(true);
      try (Statement s = pg.createStatement()) {
        s.executeUpdate("DELETE FROM ITEMS WHERE ID BETWEEN " + id + " AND " + (id + 9));
      }
      assertEquals(List.of(), server.onShards(mine));
    }
  }

  /**
   * A batch with a failing row keeps what PostgreSQL itself keeps: in the extended protocol
   * nothing (pgJDBC sends the batch up to one Sync, one transaction), in the simple protocol
   * the rows before the failure (one Query message each).
   */
  @ParameterizedTest @MethodSource("backendsAndModes")
  void aBatchWithAFailingRowKeepsWhatPostgresqlKeeps(Backend backend, Mode mode)
      throws Exception {
    final PgServerFixture server = server(backend);
    final int id = 3_000 + 10 * mode.ordinal();
    final String mine = "SELECT ID FROM ITEMS WHERE ID BETWEEN " + id + " AND " + (id + 9)
        + " ORDER BY ID";
    try (Connection pg = server.pg(mode.parameters);
         Connection postgresql = reference(mode)) {
      final List<List<String>> kept = new ArrayList<>();
      for (Connection c : List.of(postgresql, pg)) {
        try (Statement s = c.createStatement()) {
          s.addBatch(insert(id));
          s.addBatch(insert(id + 1));
          s.addBatch(insert(1)); // there already
          s.addBatch(insert(id + 2));
          assertThrows(BatchUpdateException.class, s::executeBatch);
          kept.add(ShardFixture.rows(c, mine));
          s.executeUpdate("DELETE FROM ITEMS WHERE ID BETWEEN " + id + " AND " + (id + 9));
          s.addBatch(insert(id));
          s.addBatch(insert(id + 1));
          s.executeBatch();
          kept.add(ShardFixture.rows(c, mine));
          s.executeUpdate("DELETE FROM ITEMS WHERE ID BETWEEN " + id + " AND " + (id + 9));
        }
      }
      assertEquals(kept.subList(0, 2), kept.subList(2, 4), mode.toString());
      assertEquals(List.of(id + "", id + 1 + ""), kept.get(1));
      assertEquals(List.of(), server.onShards(mine));
    }
  }

  /** A PostgreSQL database with the same table and row 1, reached as {@code mode} says. */
  private static synchronized Connection reference(Mode mode) throws SQLException {
    PostgresServer.require();
    if (reference == null) {
      reference = PostgresServer.createDatabases("pgref", 1).get(0);
      try (Connection c = DriverManager.getConnection(PostgresServer.url(reference),
          PostgresServer.USER, ""); Statement s = c.createStatement()) {
        s.execute(DDL);
        s.execute(insert(1));
      }
    }
    return DriverManager.getConnection(PostgresServer.url(reference) + "?"
        + mode.parameters.substring(1), PostgresServer.USER, "");
  }

  private static String insert(int id) {
    return "INSERT INTO ITEMS (ID, GRP, NAME) VALUES (" + id + ", 1, 'tx " + id + "')";
  }

  /**
   * PostgreSQL sessions share the process's plans, catalogs and all: a second client plans
   * nothing the first planned.
   */
  @Test void aSecondClientPlansNothingTheFirstPlanned() throws Exception {
    final PgServerFixture server = server(Backend.H2);
    final PlanCache plans = ((ShardSetDriver) DriverManager.getDriver("jdbc:shardset:"))
        .planCache();
    final List<String> sqls = List.of("SELECT NAME FROM ITEMS WHERE ID = 17",
        "SELECT c.relname FROM pg_catalog.pg_class c WHERE c.relkind = 'r'",
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'items'");
    try (Connection first = server.pg("")) {
      for (String sql : sqls) {
        ShardFixture.rows(first, sql);
      }
    }
    final long planned = plans.plans();
    try (Connection second = server.pg("")) {
      for (String sql : sqls) {
        assertTrue(!ShardFixture.rows(second, sql).isEmpty(), sql);
      }
    }
    assertEquals(planned, plans.plans());
  }

  /** pg_backend_pid(), current_setting and set_config answer for the session. */
  @Test void sessionFunctionsAnswerForTheSession() throws Exception {
    final PgServerFixture server = server(Backend.H2);
    try (Connection pg = server.pg(""); Statement s = pg.createStatement()) {
      s.execute("SET application_name = 'reports'");
      try (ResultSet rs = s.executeQuery("SELECT pg_backend_pid(),"
          + " current_setting('application_name'), current_setting('server_version_num'),"
          + " set_config('statement_timeout', '5000', false),"
          + " current_setting('no_such_setting', true)")) {
        assertTrue(rs.next());
        assertEquals(pg.unwrap(PGConnection.class).getBackendPID(), rs.getInt(1));
        assertEquals(List.of("reports", "150000", "5000"),
            List.of(rs.getString(2), rs.getString(3), rs.getString(4)));
        assertEquals(null, rs.getString(5));
      }
      try (ResultSet rs = s.executeQuery("SHOW statement_timeout")) {
        assertTrue(rs.next());
        assertEquals("5000", rs.getString(1));
      }
      // pg_settings has the values a session starts with.
      try (ResultSet rs = s.executeQuery("SELECT setting FROM pg_settings"
          + " WHERE name IN ('max_identifier_length', 'statement_timeout') ORDER BY name")) {
        assertEquals(List.of("63", "0"), ShardFixture.rows(rs));
      }
      final SQLException e = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT current_setting('no_such_setting')"));
      assertEquals("42704", e.getSQLState(), e.getMessage());
    }
  }

  @Test void errorsCarryPostgresqlsSqlStates() throws Exception {
    final PgServerFixture server = server(Backend.H2);
    for (Mode mode : Mode.values()) {
      try (Connection pg = server.pg(mode.parameters); Statement s = pg.createStatement()) {
        assertEquals("42P01", sqlState(s, "SELECT * FROM NOPE"), mode.toString());
        assertEquals("42703", sqlState(s, "SELECT NOPE FROM ITEMS"), mode.toString());
        assertEquals("42601", sqlState(s, "SELEC 1"), mode.toString());
        // The session goes on after each.
        assertEquals(List.of("120"), ShardFixture.rows(pg, "SELECT COUNT(*) FROM ITEMS"));
      }
    }
  }

  private static String sqlState(Statement s, String sql) {
    return assertThrows(SQLException.class, () -> {
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          rs.getObject(1);
        }
      }
    }).getSQLState();
  }
}
