package io.shardset.calcite;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ExpectedPlacement;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INSERT through ShardSet compared with the same statements on an unsharded copy, on four
 * shards of one backend: the logical tables read back equal, and every row sits on the shard
 * and physical table its key routes to (each shard's tables read with plain JDBC, the shard
 * computed by the spec's hash or the table's router). Errors leave nothing anywhere.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class InsertTestBase {
  static final int SHARDS = 4;
  static final int CHUNKS = 120 * SHARDS;
  static final List<String> TABLES = List.of("ORDERS", "BY_DATE", "BY_TS", "BY_DEC",
      "BY_NAME", "REGIONS", "TICKETS");

  ShardFixture fixture;
  String model;

  abstract Backend backend();

  /** The column type of a timestamp on this backend (MariaDB's TIMESTAMP is another thing). */
  String timestampType() {
    return "TIMESTAMP(3)";
  }

  String[] ddl(boolean oracle) {
    final String ts = timestampType();
    final List<String> ddl = new ArrayList<>(List.of(
        "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER VARCHAR(40),"
            + " AMOUNT DECIMAL(12, 2), ORDERED DATE, CREATED " + ts + ", QTY INTEGER)",
        "CREATE TABLE BY_DATE (D DATE, NOTE VARCHAR(40))",
        "CREATE TABLE BY_TS (TS " + ts + " PRIMARY KEY, NOTE VARCHAR(40))",
        "CREATE TABLE BY_DEC (AMOUNT DECIMAL(12, 2) PRIMARY KEY, NOTE VARCHAR(40))",
        "CREATE TABLE BY_NAME (NAME VARCHAR(40) PRIMARY KEY, NOTE VARCHAR(40))",
        "CREATE TABLE REGIONS (REGION VARCHAR(8) PRIMARY KEY, NAME VARCHAR(40))"));
    if (oracle) {
      ddl.add(tickets("TICKETS"));
    } else {
      ddl.add(tickets("TICKETS_LOW"));
      ddl.add(tickets("TICKETS_HIGH"));
    }
    return ddl.toArray(String[]::new);
  }

  private static String tickets(String name) {
    return "CREATE TABLE " + name + " (TICKET_ID INTEGER PRIMARY KEY, PRIORITY INTEGER NOT NULL,"
        + " TITLE VARCHAR(40))";
  }

  static final String TABLES_JSON = """
      "tables": [
        {"name": "ORDERS", "method": "consistent-hash", "shardKey": ["ID"]},
        {"name": "BY_DATE", "method": "range", "shardKey": ["D"],
         "ranges": [{"shard": "s0", "to": "1990-01-01"},
                    {"shard": "s1", "from": "1990-01-01", "to": "2010-01-01"},
                    {"shard": "s2", "from": "2010-01-01", "to": "2030-01-01"},
                    {"shard": "s3", "from": "2030-01-01"}]},
        {"name": "BY_TS", "method": "consistent-hash", "shardKey": ["TS"]},
        {"name": "BY_DEC", "method": "consistent-hash", "shardKey": ["AMOUNT"]},
        {"name": "BY_NAME", "method": "list", "shardKey": ["NAME"],
         "lists": [{"shard": "s0", "values": ["a", "b"]}, {"shard": "s1", "values": ["c"]},
                   {"shard": "s3", "default": true}]},
        {"name": "REGIONS", "method": "duplicated"},
        {"name": "TICKETS", "method": "range", "shardKey": ["TICKET_ID"],
         "ranges": [{"shard": "s0", "to": 100}, {"shard": "s1", "from": 100, "to": 200},
                    {"shard": "s2", "from": 200, "to": 300}, {"shard": "s3", "from": 300,
                     "to": 400}],
         "subpartitions": {"column": "PRIORITY", "physicalName": "TICKETS_{name}",
           "ranges": [{"name": "LOW", "to": 3}, {"name": "HIGH", "from": 3, "to": 6}]}}]""";

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), SHARDS, ddl(false));
    try (Statement s = fixture.oracle().createStatement()) {
      for (String sql : ddl(true)) {
        if (sql.contains("TICKETS ")) {
          s.execute(sql);
        }
      }
    }
    model = fixture.model(TABLES_JSON);
  }

  @AfterAll void tearDown() throws SQLException {
    fixture.close();
  }

  @BeforeEach void empty() throws SQLException {
    for (String shard : fixture.shards().names()) {
      try (Connection c = plain(shard); Statement s = c.createStatement()) {
        for (String table : List.of("ORDERS", "BY_DATE", "BY_TS", "BY_DEC", "BY_NAME",
            "REGIONS", "TICKETS_LOW", "TICKETS_HIGH")) {
          s.execute("DELETE FROM " + table);
        }
      }
    }
    try (Statement s = fixture.oracle().createStatement()) {
      for (String table : TABLES) {
        s.execute("DELETE FROM " + table);
      }
    }
  }

  /** A plain JDBC connection to a shard, past ShardSet. */
  Connection plain(String shard) throws SQLException {
    final ShardConnectionSettings settings = fixture.shards().settings(shard);
    return DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password());
  }

  /** Generated INSERT statements with edge values, each of one to four rows. */
  static List<String> statements(long seed) {
    final SplittableRandom r = new SplittableRandom(seed);
    final String[] customers = {"NULL", "'plain'", "'O''Brien'", "''", "'Zürich café'",
        "'it''s \"quoted\"'", "'  padded  '"};
    final String[] amounts = {"NULL", "9999999999.99", "-9999999999.99", "0.00", "0.01",
        "123.45"};
    final String[] dates = {"NULL", "DATE '1970-01-01'", "DATE '1969-12-31'",
        "DATE '2038-01-19'", "DATE '2000-02-29'", "DATE '1989-12-31'", "DATE '1990-01-01'",
        "DATE '2030-01-01'"};
    final String[] stamps = {"NULL", "TIMESTAMP '1999-12-31 23:59:59.999'",
        "TIMESTAMP '2021-06-01 00:00:00.000'", "TIMESTAMP '1970-01-02 00:00:00.001'",
        "TIMESTAMP '2037-12-31 12:30:45.500'"};
    final String[] quantities = {"NULL", "2147483647", "-2147483648", "0", "7"};
    final List<String> statements = new ArrayList<>();
    long id = 1;
    final long[] edgeIds = {Long.MAX_VALUE, -Long.MAX_VALUE, 0, -1};
    for (int s = 0; s < 30; s++) {
      final List<String> rows = new ArrayList<>();
      for (int i = 1 + r.nextInt(4); i > 0; i--) {
        final long key = s < edgeIds.length && rows.isEmpty() ? edgeIds[s] : 1000 + id++;
        rows.add("(" + key + ", " + customers[r.nextInt(customers.length)] + ", "
            + amounts[r.nextInt(amounts.length)] + ", " + dates[r.nextInt(dates.length)]
            + ", " + stamps[r.nextInt(stamps.length)] + ", "
            + quantities[r.nextInt(quantities.length)] + ")");
      }
      statements.add("INSERT INTO ORDERS (ID, CUSTOMER, AMOUNT, ORDERED, CREATED, QTY) VALUES "
          + String.join(", ", rows));
    }
    for (int i = 0; i < dates.length - 1; i++) {
      statements.add("INSERT INTO BY_DATE VALUES (" + dates[i + 1] + ", 'd" + i + "')");
      statements.add("INSERT INTO BY_NAME VALUES ('" + (char) ('a' + i) + "', " + customers[
          i % customers.length] + ")");
    }
    for (int i = 0; i < stamps.length - 1; i++) {
      statements.add("INSERT INTO BY_TS VALUES (" + stamps[i + 1] + ", 't" + i + "')");
    }
    for (int i = 0; i < amounts.length - 1; i++) {
      statements.add("INSERT INTO BY_DEC (NOTE, AMOUNT) VALUES ('a" + i + "', " + amounts[i + 1]
          + ")");
    }
    statements.add("INSERT INTO REGIONS VALUES ('EU', 'Europe'), ('US', 'United States')");
    final StringBuilder tickets = new StringBuilder("INSERT INTO TICKETS VALUES ");
    for (int t = 0; t < 40; t++) {
      tickets.append(t == 0 ? "" : ", ").append('(').append(t * 10).append(", ")
          .append(t % 6).append(", 'ticket ").append(t).append("')");
    }
    statements.add(tickets.toString());
    return statements;
  }

  /** The number of rows a generated statement inserts. */
  static int rowCount(String insert) {
    return insert.split("\\), \\(", -1).length;
  }

  void differential(Connector connector) throws SQLException {
    final List<String> statements = statements(11);
    try (Connection c = connector.open(model); Statement s = c.createStatement();
        Statement oracle = fixture.oracle().createStatement()) {
      for (String sql : statements) {
        assertEquals(rowCount(sql), s.executeUpdate(sql), sql);
        oracle.executeUpdate(sql);
      }
      assertSameAsOracle(c);
    }
    audit();
  }

  @Test void differentialOnShardSetConnections() throws SQLException {
    differential(Connector.SHARDSET);
  }

  @Test void differentialOnCalciteConnections() throws SQLException {
    differential(Connector.CALCITE);
  }

  void assertSameAsOracle(Connection c) throws SQLException {
    for (String table : TABLES) {
      final List<String> expected = sorted(fixture.oracleRows("SELECT * FROM " + table));
      assertEquals(expected, sorted(ShardFixture.rows(c, "SELECT * FROM " + table)), table);
    }
  }

  /**
   * Reads every shard's physical tables with plain JDBC and checks each row sits where its
   * key routes it: ORDERS by the spec's hash of a BIGINT, the others by the table's router,
   * REGIONS everywhere, TICKETS also in its PRIORITY's subpartition table.
   */
  void audit() throws SQLException {
    final Map<String, List<String>> found = new TreeMap<>();
    try (Connection c = Connector.CALCITE.open(model)) {
      final ShardSchema schema = ShardFixture.schema(c);
      for (int shard = 0; shard < SHARDS; shard++) {
        final String name = "s" + shard;
        try (Connection p = plain(name); Statement s = p.createStatement()) {
          try (ResultSet rs = s.executeQuery("SELECT ID FROM ORDERS")) {
            while (rs.next()) {
              assertEquals(shard, ExpectedPlacement.shardOfLong(rs.getLong(1), CHUNKS, SHARDS),
                  "ORDERS " + rs.getLong(1) + " on " + name);
            }
          }
          for (String table : List.of("BY_DATE", "BY_TS", "BY_DEC", "BY_NAME")) {
            try (ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
              while (rs.next()) {
                final Object key = key(rs);
                final OptionalInt expected = schema.table(table).router().shardOf(
                    List.of(key));
                assertEquals(OptionalInt.of(shard), expected, table + " " + key + " on "
                    + name);
                found.computeIfAbsent(table, t -> new ArrayList<>()).add(String.valueOf(key));
              }
            }
          }
          assertEquals(sorted(fixture.oracleRows("SELECT * FROM REGIONS")),
              sorted(ShardFixture.rows(p, "SELECT * FROM REGIONS")), "REGIONS on " + name);
          for (String sub : List.of("LOW", "HIGH")) {
            try (ResultSet rs = s.executeQuery("SELECT TICKET_ID, PRIORITY FROM TICKETS_"
                + sub)) {
              while (rs.next()) {
                assertEquals(shard, rs.getInt(1) / 100, "TICKETS " + rs.getInt(1));
                assertEquals(sub, rs.getInt(2) < 3 ? "LOW" : "HIGH", "TICKETS " + rs.getInt(1));
              }
            }
          }
        }
      }
    }
    for (Map.Entry<String, List<String>> e : found.entrySet()) {
      assertEquals(fixture.oracleRows("SELECT COUNT(*) FROM " + e.getKey()).get(0),
          String.valueOf(e.getValue().size()), e.getKey());
    }
  }

  private static Object key(ResultSet rs) throws SQLException {
    final Object value = rs.getObject(1);
    if (value instanceof Date date) {
      return date.toLocalDate();
    }
    if (value instanceof Timestamp stamp) {
      return stamp.toLocalDateTime();
    }
    if (value instanceof java.time.LocalDateTime || value instanceof LocalDate) {
      return value;
    }
    return value;
  }

  /** The rows of a table on every shard, read past ShardSet. */
  int rowsOnShards(String physicalTable) throws SQLException {
    int rows = 0;
    for (String shard : fixture.shards().names()) {
      try (Connection p = plain(shard); Statement s = p.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + physicalTable)) {
        rs.next();
        rows += rs.getInt(1);
      }
    }
    return rows;
  }

  @Test void insertSelectFromAnotherShardedTable() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      assertEquals(40, s.executeUpdate(statements(3).get(statements(3).size() - 1)));
      // TICKETS is sharded by TICKET_ID ranges, ORDERS by a hash of ID: rows move shards.
      assertEquals(40, s.executeUpdate("INSERT INTO ORDERS (ID, CUSTOMER, QTY)"
          + " SELECT TICKET_ID * 7, TITLE, PRIORITY FROM TICKETS"));
      try (Statement oracle = fixture.oracle().createStatement()) {
        oracle.executeUpdate(statements(3).get(statements(3).size() - 1));
        oracle.executeUpdate("INSERT INTO ORDERS (ID, CUSTOMER, QTY)"
            + " SELECT TICKET_ID * 7, TITLE, PRIORITY FROM TICKETS");
      }
      assertSameAsOracle(c);
    }
    audit();
  }

  @Test void preparedStatementsRouteEachExecution() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model);
        PreparedStatement p = c.prepareStatement("INSERT INTO ORDERS (ID, CUSTOMER, AMOUNT,"
            + " ORDERED, CREATED) VALUES (?, ?, ?, ?, ?)");
        PreparedStatement o = fixture.oracle().prepareStatement("INSERT INTO ORDERS (ID,"
            + " CUSTOMER, AMOUNT, ORDERED, CREATED) VALUES (?, ?, ?, ?, ?)")) {
      for (long id = 1; id <= 12; id++) {
        for (PreparedStatement statement : List.of(p, o)) {
          statement.setLong(1, id * 1_000_003L);
          statement.setString(2, id % 3 == 0 ? null : "naïve ☃ " + id + " 'q'");
          statement.setBigDecimal(3, new java.math.BigDecimal(id + ".25"));
          statement.setDate(4, Date.valueOf(LocalDate.of(2000, 1, 1).plusDays(id * 40)));
          statement.setTimestamp(5, Timestamp.valueOf("2020-03-0" + (1 + id % 9)
              + " 10:11:12.345"));
          assertEquals(1, statement.executeUpdate());
        }
      }
      assertSameAsOracle(c);
    }
    audit();
  }

  @Test void batchesOfPreparedStatementsCountEachRow() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model);
        PreparedStatement p = c.prepareStatement("INSERT INTO BY_NAME VALUES (?, ?)")) {
      for (String name : List.of("a", "b", "c", "d", "e")) {
        p.setString(1, name);
        p.setString(2, "note " + name);
        p.addBatch();
      }
      assertArrayEquals(new int[] {1, 1, 1, 1, 1}, p.executeBatch());
      fixture.oracle().createStatement().executeUpdate("INSERT INTO BY_NAME VALUES"
          + " ('a', 'note a'), ('b', 'note b'), ('c', 'note c'), ('d', 'note d'),"
          + " ('e', 'note e')");
      assertSameAsOracle(c);
    }
    audit();
  }

  @Test void rollbackLeavesNothingAndCommitKeepsAll() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(3, s.executeUpdate("INSERT INTO ORDERS (ID) VALUES (1), (2), (3)"));
      assertEquals(2, s.executeUpdate("INSERT INTO REGIONS VALUES ('EU', 'x'), ('US', 'y')"));
      c.rollback();
      assertEquals(0, rowsOnShards("ORDERS"));
      assertEquals(0, rowsOnShards("REGIONS"));
      assertEquals(3, s.executeUpdate("INSERT INTO ORDERS (ID) VALUES (1), (2), (3)"));
      assertEquals(2, s.executeUpdate("INSERT INTO REGIONS VALUES ('EU', 'x'), ('US', 'y')"));
      // Not committed yet: the shards' other sessions do not see the rows.
      assertEquals(0, rowsOnShards("ORDERS"));
      c.commit();
      assertEquals(3, rowsOnShards("ORDERS"));
      assertEquals(2 * SHARDS, rowsOnShards("REGIONS"));
    }
  }

  /** Runs a failing INSERT and returns its error; no shard holds any row afterwards. */
  SQLException failsWritingNothing(String sql) throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(sql));
      for (String table : List.of("ORDERS", "BY_DATE", "BY_NAME", "REGIONS", "TICKETS_LOW",
          "TICKETS_HIGH")) {
        assertEquals(0, rowsOnShards(table), table + " after " + sql);
      }
      return e;
    }
  }

  static String message(SQLException e) {
    final String m = e.getMessage();
    final int at = m.indexOf("\": ");
    return at < 0 ? m : m.substring(at + 3);
  }

  @Test void noShardAcceptsTheKey() throws SQLException {
    final SQLException e = failsWritingNothing("INSERT INTO TICKETS VALUES (1, 1, 'a'),"
        + " (250, 4, 'b'), (400, 1, 'c')");
    assertEquals("table S.TICKETS: no shard accepts key TICKET_ID = 400", message(e));
    assertEquals("22023", e.getSQLState());
  }

  @Test void noSubpartitionAcceptsTheValue() throws SQLException {
    final SQLException e = failsWritingNothing("INSERT INTO TICKETS VALUES (1, 1, 'a'),"
        + " (2, 6, 'b')");
    assertEquals("table S.TICKETS: no subpartition accepts PRIORITY = 6", message(e));
  }

  @Test void nullKey() throws SQLException {
    final SQLException e = failsWritingNothing("INSERT INTO BY_DATE VALUES"
        + " (DATE '2000-01-01', 'a'), (NULL, 'b')");
    assertEquals("table S.BY_DATE: no shard accepts key D = null (a key column is NULL)",
        message(e));
  }

  @Test void duplicateKeyOnAShardNamesTheShard() throws SQLException {
    final SQLException e = failsWritingNothing("INSERT INTO BY_NAME VALUES ('a', '1'),"
        + " ('c', '2'), ('zz', '3'), ('zz', '4')");
    assertTrue(message(e).startsWith("table S.BY_NAME: shard 's3' failed: "), message(e));
    assertTrue(e.getSQLState().startsWith("23"), e.getSQLState());
  }

  @Test void explainShowsTheModifyNode() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model)) {
      final String plan = ShardFixture.rows(c, "EXPLAIN PLAN FOR INSERT INTO ORDERS (ID)"
          + " VALUES (1)").get(0);
      assertTrue(plan.startsWith("EnumerableShardTableModify(table=[[S, ORDERS]],"
          + " operation=[INSERT], flattened=[false], shards=[4])"), plan);
    }
  }
}
