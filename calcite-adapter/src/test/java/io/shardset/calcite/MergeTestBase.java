package io.shardset.calcite;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.CountingShards;
import io.shardset.testing.ExpectedPlacement;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MERGE through ShardSet compared with the same statements run by H2 on an unsharded copy
 * (H2 runs standard MERGE): equal row counts, equal tables, every row on the shard and
 * physical table its key routes to. Upsert-shaped statements must reach each shard as its
 * database's native upsert; other shapes run row by row.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MergeTestBase {
  static final int SHARDS = 4;
  static final int CHUNKS = 120 * SHARDS;
  static final List<String> TABLES = List.of("ORDERS", "BY_NAME", "REGIONS", "TICKETS");
  private static final AtomicInteger ORACLES = new AtomicInteger();

  ShardFixture fixture;
  Connection oracle;
  String model;

  abstract Backend backend();

  static String[] ddl(boolean unsharded) {
    final List<String> ddl = new ArrayList<>(List.of(
        "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER VARCHAR(40),"
            + " AMOUNT DECIMAL(12, 2), QTY INTEGER)",
        "CREATE TABLE BY_NAME (NAME VARCHAR(40) PRIMARY KEY, NOTE VARCHAR(40))",
        "CREATE TABLE REGIONS (REGION VARCHAR(8) PRIMARY KEY, NAME VARCHAR(40))",
        "CREATE TABLE NOTES (ID INTEGER, NOTE VARCHAR(40))"));
    for (String name : unsharded ? List.of("TICKETS") : List.of("TICKETS_LOW",
        "TICKETS_HIGH")) {
      ddl.add("CREATE TABLE " + name + " (TICKET_ID INTEGER PRIMARY KEY,"
          + " PRIORITY INTEGER NOT NULL, TITLE VARCHAR(40))");
    }
    return ddl.toArray(String[]::new);
  }

  static final String TABLES_JSON = """
      "tables": [
        {"name": "ORDERS", "method": "consistent-hash", "shardKey": ["ID"]},
        {"name": "BY_NAME", "method": "list", "shardKey": ["NAME"],
         "lists": [{"shard": "s0", "values": ["a", "b"]}, {"shard": "s1", "values": ["c"]},
                   {"shard": "s3", "default": true}]},
        {"name": "REGIONS", "method": "duplicated"},
        {"name": "NOTES", "method": "duplicated"},
        {"name": "TICKETS", "method": "range", "shardKey": ["TICKET_ID"],
         "ranges": [{"shard": "s0", "to": 100}, {"shard": "s1", "from": 100, "to": 200},
                    {"shard": "s2", "from": 200, "to": 300}, {"shard": "s3", "from": 300,
                     "to": 400}],
         "subpartitions": {"column": "PRIORITY", "physicalName": "TICKETS_{name}",
           "ranges": [{"name": "LOW", "to": 3}, {"name": "HIGH", "from": 3, "to": 6}]}}]""";

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), SHARDS, ddl(false));
    // H2 runs the same standard MERGE, whatever the shards' database.
    oracle = DriverManager.getConnection("jdbc:h2:mem:merge_oracle_"
        + ORACLES.incrementAndGet() + ";DB_CLOSE_DELAY=-1", "sa", "");
    try (Statement s = oracle.createStatement()) {
      for (String sql : ddl(true)) {
        s.execute(sql);
      }
    }
    model = fixture.model(TABLES_JSON);
  }

  @AfterAll void tearDown() throws SQLException {
    try (Statement s = oracle.createStatement()) {
      s.execute("SHUTDOWN");
    }
    oracle.close();
    fixture.close();
  }

  @BeforeEach void empty() throws SQLException {
    for (String shard : fixture.shards().names()) {
      try (Connection c = plain(shard); Statement s = c.createStatement()) {
        for (String table : List.of("ORDERS", "BY_NAME", "REGIONS", "NOTES", "TICKETS_LOW",
            "TICKETS_HIGH")) {
          s.execute("DELETE FROM " + table);
        }
      }
    }
    try (Statement s = oracle.createStatement()) {
      for (String table : TABLES) {
        s.execute("DELETE FROM " + table);
      }
    }
  }

  Connection plain(String shard) throws SQLException {
    final ShardConnectionSettings settings = fixture.shards().settings(shard);
    return DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password());
  }

  /**
   * Generated MERGE statements into ORDERS, BY_NAME and REGIONS: VALUES sources of one to
   * five rows whose keys are partly new, partly inserted by earlier statements, SET lists of
   * fewer columns than the table, updates equal to the inserted value or another.
   */
  static List<String> statements(long seed) {
    final SplittableRandom r = new SplittableRandom(seed);
    final String[] customers = {"NULL", "'plain'", "'O''Brien'", "''", "'Zürich café'"};
    final String[] amounts = {"NULL", "9999999999.99", "-0.01", "0.00", "123.45"};
    final List<String> statements = new ArrayList<>();
    final List<Long> used = new ArrayList<>(List.of(Long.MAX_VALUE, -Long.MAX_VALUE, 0L));
    long next = 1;
    for (int s = 0; s < 24; s++) {
      final List<String> rows = new ArrayList<>();
      final List<Long> keys = new ArrayList<>();
      for (int i = s % 6 == 0 ? 1 : 1 + r.nextInt(5); i > 0; i--) {
        long key;
        do {
          key = r.nextInt(3) == 0 ? used.get(r.nextInt(used.size())) : 1000 + next++;
        } while (keys.contains(key));
        keys.add(key);
        rows.add("(" + key + ", CAST(" + customers[r.nextInt(customers.length)]
            + " AS VARCHAR(40)), CAST(" + amounts[r.nextInt(amounts.length)]
            + " AS DECIMAL(12, 2)), CAST(" + (r.nextInt(4) == 0 ? "NULL" : r.nextInt(1000))
            + " AS INTEGER))");
      }
      used.addAll(keys);
      final String set = switch (s % 3) {
      case 0 -> "CUSTOMER = s.C, AMOUNT = s.A";
      case 1 -> "QTY = s.Q";
      default -> "CUSTOMER = 'updated', QTY = s.Q + 1";
      };
      statements.add("MERGE INTO ORDERS USING (VALUES " + String.join(", ", rows)
          + ") AS s (I, C, A, Q) ON ORDERS.ID = s.I WHEN MATCHED THEN UPDATE SET " + set
          + " WHEN NOT MATCHED THEN INSERT (ID, CUSTOMER, AMOUNT, QTY)"
          + " VALUES (s.I, s.C, s.A, s.Q)");
    }
    for (int s = 0; s < 6; s++) {
      final List<String> rows = new ArrayList<>();
      for (char name = (char) ('a' + s % 3); name < 'a' + s % 3 + 3; name++) {
        rows.add("('" + name + (s > 3 ? "z" : "") + "', CAST('n" + s + "' AS VARCHAR(40)))");
      }
      statements.add("MERGE INTO BY_NAME AS t USING (VALUES " + String.join(", ", rows)
          + ") AS s (N, V) ON t.NAME = s.N WHEN MATCHED THEN UPDATE SET NOTE = s.V"
          + " WHEN NOT MATCHED THEN INSERT VALUES (s.N, s.V)");
    }
    for (int s = 0; s < 3; s++) {
      statements.add("MERGE INTO REGIONS USING (VALUES (CAST('EU' AS VARCHAR(8)), CAST('Europe "
          + s + "' AS VARCHAR(40))), ('US" + s + "', CAST('States' AS VARCHAR(40)))) AS s (R, N)"
          + " ON REGIONS.REGION = s.R WHEN MATCHED THEN UPDATE SET NAME = s.N"
          + " WHEN NOT MATCHED THEN INSERT (REGION, NAME) VALUES (s.R, s.N)");
    }
    return statements;
  }

  /** Runs statements on ShardSet and on the oracle: equal counts, tables, placement. */
  void differential(Connection c, List<String> statements) throws SQLException {
    try (Statement s = c.createStatement(); Statement o = oracle.createStatement()) {
      for (String sql : statements) {
        assertEquals(o.executeUpdate(sql), s.executeUpdate(sql), sql);
      }
    }
    assertSameAsOracle(c);
    audit();
  }

  @Test void differentialOnShardSetConnections() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model)) {
      differential(c, statements(5));
    }
  }

  @Test void differentialOnCalciteConnections() throws SQLException {
    try (Connection c = Connector.CALCITE.open(model)) {
      differential(c, statements(17));
    }
  }

  void assertSameAsOracle(Connection c) throws SQLException {
    for (String table : TABLES) {
      final List<String> expected = sorted(ShardFixture.rows(oracle.createStatement()
          .executeQuery("SELECT * FROM " + table)));
      assertEquals(expected, sorted(ShardFixture.rows(c, "SELECT * FROM " + table)), table);
    }
  }

  /** Every row on the shard and physical table its key routes to, none twice. */
  void audit() throws SQLException {
    int orders = 0;
    int names = 0;
    int tickets = 0;
    try (Connection c = Connector.CALCITE.open(model)) {
      final ShardSchema schema = ShardFixture.schema(c);
      for (int shard = 0; shard < SHARDS; shard++) {
        final String name = "s" + shard;
        try (Connection p = plain(name); Statement s = p.createStatement()) {
          try (ResultSet rs = s.executeQuery("SELECT ID FROM ORDERS")) {
            while (rs.next()) {
              orders++;
              assertEquals(shard, ExpectedPlacement.shardOfLong(rs.getLong(1), CHUNKS, SHARDS),
                  "ORDERS " + rs.getLong(1) + " on " + name);
            }
          }
          try (ResultSet rs = s.executeQuery("SELECT NAME FROM BY_NAME")) {
            while (rs.next()) {
              names++;
              assertEquals(OptionalInt.of(shard), schema.table("BY_NAME").router().shardOf(
                  List.of(rs.getString(1))), "BY_NAME " + rs.getString(1) + " on " + name);
            }
          }
          assertEquals(sorted(ShardFixture.rows(oracle.createStatement().executeQuery(
              "SELECT * FROM REGIONS"))), sorted(ShardFixture.rows(p,
              "SELECT * FROM REGIONS")), "REGIONS on " + name);
          for (String sub : List.of("LOW", "HIGH")) {
            try (ResultSet rs = s.executeQuery("SELECT TICKET_ID, PRIORITY FROM TICKETS_"
                + sub)) {
              while (rs.next()) {
                tickets++;
                assertEquals(shard, rs.getInt(1) / 100, "TICKETS " + rs.getInt(1));
                assertEquals(sub, rs.getInt(2) < 3 ? "LOW" : "HIGH", "TICKETS " + rs.getInt(1));
              }
            }
          }
        }
      }
    }
    assertEquals(oracleCount("ORDERS"), orders, "ORDERS rows on the shards");
    assertEquals(oracleCount("BY_NAME"), names, "BY_NAME rows on the shards");
    assertEquals(oracleCount("TICKETS"), tickets, "TICKETS rows on the shards");
  }

  private int oracleCount(String table) throws SQLException {
    try (Statement s = oracle.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Runs the same statement on ShardSet and on the oracle. */
  void both(Connection c, String sql, int expectedCount) throws SQLException {
    try (Statement s = c.createStatement(); Statement o = oracle.createStatement()) {
      assertEquals(expectedCount, o.executeUpdate(sql), "oracle: " + sql);
      assertEquals(expectedCount, s.executeUpdate(sql), sql);
    }
  }

  @Test void preparedMergeWithParameters() throws SQLException {
    // Calcite infers no type for a parameter in VALUES: the statement casts each.
    final String sql = "MERGE INTO ORDERS USING (VALUES (CAST(? AS BIGINT),"
        + " CAST(? AS VARCHAR(40)), CAST(? AS INTEGER))) AS s (I, C, Q)"
        + " ON ORDERS.ID = s.I WHEN MATCHED THEN UPDATE SET QTY = s.Q"
        + " WHEN NOT MATCHED THEN INSERT (ID, CUSTOMER, QTY) VALUES (s.I, s.C, s.Q)";
    try (Connection c = Connector.SHARDSET.open(model);
        PreparedStatement p = c.prepareStatement(sql);
        PreparedStatement o = oracle.prepareStatement(sql)) {
      for (int i = 0; i < 16; i++) {
        for (PreparedStatement statement : List.of(p, o)) {
          statement.setLong(1, (i % 8) * 1_000_003L);
          statement.setString(2, "customer " + i);
          statement.setInt(3, i);
          assertEquals(1, statement.executeUpdate());
        }
      }
      assertSameAsOracle(c);
    }
    audit();
  }

  @Test void selectSourceFromAnotherShardedTable() throws SQLException {
    final String tickets = "INSERT INTO TICKETS VALUES " + String.join(", ", ticketRows(0));
    // A sub-query as the source (USING (SELECT ...) s) meets a bug of Calcite's conversion.
    final String merge = "MERGE INTO ORDERS USING TICKETS AS s ON ORDERS.ID = s.TICKET_ID * 7"
        + " WHEN MATCHED THEN UPDATE SET QTY = s.PRIORITY, CUSTOMER = s.TITLE"
        + " WHEN NOT MATCHED THEN INSERT (ID, CUSTOMER, QTY)"
        + " VALUES (s.TICKET_ID * 7, s.TITLE, s.PRIORITY)";
    try (Connection c = Connector.SHARDSET.open(model)) {
      both(c, tickets, 40);
      both(c, "INSERT INTO ORDERS (ID, CUSTOMER) VALUES (0, 'zero'), (70, 'seventy'),"
          + " (140, 'x'), (5, 'five')", 4);
      // TICKETS is placed by TICKET_ID ranges, ORDERS by a hash of ID: rows move shards.
      both(c, merge, 40);
      assertSameAsOracle(c);
      final String plan = ShardFixture.rows(c, "EXPLAIN PLAN FOR " + merge).get(0);
      assertTrue(plan.contains("upsert=["), plan);
    }
    audit();
  }

  static List<String> ticketRows(int shift) {
    final List<String> rows = new ArrayList<>();
    for (int t = 0; t < 40; t++) {
      rows.add("(" + t * 10 + ", " + (t + shift) % 6 + ", 'ticket " + t + "')");
    }
    return rows;
  }

  /** The statements each shard received since the last reset, upper-cased. */
  List<String> received(String shard) {
    return fixture.shards().executions(shard).stream()
        .map(e -> e.sql().toUpperCase(Locale.ROOT)).toList();
  }

  /** The database product of a shard, read past ShardSet. */
  String product(String shard) throws SQLException {
    try (Connection p = plain(shard)) {
      return p.getMetaData().getDatabaseProductName();
    }
  }

  /** The native upsert of ORDERS each shard must receive for {@code SET CUSTOMER = s.C,
   * QTY = 5}: the first from the inserted value, the second a parameter. */
  static String nativeOrdersUpsert(String product) {
    final String q = "MariaDB".equalsIgnoreCase(product) || "MySQL".equalsIgnoreCase(product)
        ? "`" : "\"";
    final String cols = String.join(", ", List.of(q + "ID" + q, q + "CUSTOMER" + q,
        q + "AMOUNT" + q, q + "QTY" + q));
    return switch (product) {
    case "PostgreSQL" -> "INSERT INTO \"ORDERS\" (" + cols + ") VALUES (?, ?, ?, ?)"
        + " ON CONFLICT (\"ID\") DO UPDATE SET \"CUSTOMER\" = EXCLUDED.\"CUSTOMER\","
        + " \"QTY\" = ?";
    case "H2" -> "MERGE INTO \"ORDERS\" \"T\" USING (VALUES (?, ?, ?, ?)) \"S\" (" + cols
        + ") ON \"T\".\"ID\" = \"S\".\"ID\" WHEN MATCHED THEN UPDATE SET"
        + " \"CUSTOMER\" = \"S\".\"CUSTOMER\", \"QTY\" = ? WHEN NOT MATCHED THEN INSERT ("
        + cols + ") VALUES (\"S\".\"ID\", \"S\".\"CUSTOMER\", \"S\".\"AMOUNT\", \"S\".\"QTY\")";
    default -> "INSERT INTO `ORDERS` (" + cols + ") VALUES (?, ?, ?, ?)"
        + " ON DUPLICATE KEY UPDATE `CUSTOMER` = VALUES(`CUSTOMER`), `QTY` = ?";
    };
  }

  @Test void upsertReachesEachShardAsItsNativeStatement() throws SQLException {
    final StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      rows.append(i == 0 ? "" : ", ").append("(").append(i * 7919L).append(", CAST('c")
          .append(i).append("' AS VARCHAR(40)))");
    }
    final String merge = "MERGE INTO ORDERS USING (VALUES " + rows + ") AS s (I, C)"
        + " ON ORDERS.ID = s.I WHEN MATCHED THEN UPDATE SET CUSTOMER = s.C, QTY = 5"
        + " WHEN NOT MATCHED THEN INSERT (ID, CUSTOMER) VALUES (s.I, s.C)";
    try (Connection c = Connector.SHARDSET.open(model)) {
      both(c, "INSERT INTO ORDERS (ID) VALUES (0), (7919), (15838)", 3);
      final CountingShards shards = fixture.shards();
      shards.resetCounters();
      both(c, merge, 40);
      for (String shard : shards.names()) {
        final List<String> received = received(shard);
        final String expected = nativeOrdersUpsert(product(shard)).toUpperCase(Locale.ROOT);
        assertTrue(received.contains(expected), shard + " received " + received);
        // A MariaDB branch asks its session's id when it starts; no table is read.
        assertTrue(received.stream().noneMatch(sql -> sql.startsWith("SELECT")
            && !sql.equals("SELECT CONNECTION_ID()")), shard + " was read: " + received);
      }
      assertSameAsOracle(c);
    }
    audit();
  }

  @Test void explainShowsTheNativeUpsert() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model)) {
      final String plan = ShardFixture.rows(c, "EXPLAIN PLAN FOR MERGE INTO ORDERS"
          + " USING (VALUES (1, 'a')) AS s (I, C) ON ORDERS.ID = s.I"
          + " WHEN MATCHED THEN UPDATE SET CUSTOMER = s.C"
          + " WHEN NOT MATCHED THEN INSERT (ID, CUSTOMER) VALUES (s.I, s.C)").get(0);
      assertTrue(plan.startsWith("EnumerableShardMerge(table=[[S, ORDERS]],"
          + " operation=[MERGE], updateColumnList=[[CUSTOMER]], flattened=[false],"
          + " shards=[4], key=[[ID]], upsert=[" + expectedForms() + "])"), plan);
    }
  }

  /** The native forms EXPLAIN lists for this backend's shards, in shard order. */
  abstract String expectedForms();

  @Test void setReadingTheTableRunsRowWise() throws SQLException {
    final String merge = "MERGE INTO ORDERS USING (VALUES (1, 10), (2, 20), (3, 30)) AS s"
        + " (I, Q) ON ORDERS.ID = s.I WHEN MATCHED THEN UPDATE SET QTY = ORDERS.QTY + s.Q"
        + " WHEN NOT MATCHED THEN INSERT (ID, QTY) VALUES (s.I, s.Q)";
    try (Connection c = Connector.SHARDSET.open(model)) {
      both(c, "INSERT INTO ORDERS (ID, QTY) VALUES (1, 1), (2, 2)", 2);
      final String plan = ShardFixture.rows(c, "EXPLAIN PLAN FOR " + merge).get(0);
      assertTrue(plan.contains("key=[[ID]], rowWise=[a SET value reads the table's"
          + " columns])"), plan);
      fixture.shards().resetCounters();
      both(c, merge, 3);
      final List<String> updates = new ArrayList<>();
      for (String shard : fixture.shards().names()) {
        received(shard).stream().filter(sql -> sql.startsWith("UPDATE")).forEach(updates::add);
      }
      assertEquals(2, updates.size(), updates.toString());
      assertTrue(updates.get(0).endsWith(" SET " + quoted("QTY") + " = ? WHERE "
          + quoted("ID") + " = ?"), updates.toString());
      assertSameAsOracle(c);
    }
    audit();
  }

  /** A column name quoted as shard s0 quotes it, upper-cased. */
  String quoted(String column) throws SQLException {
    final String product = product("s0");
    return "MariaDB".equalsIgnoreCase(product) ? "`" + column + "`" : "\"" + column + "\"";
  }

  @Test void routingColumnOutsideTheKeyRunsRowWiseAndMovesRows() throws SQLException {
    // PRIORITY places a ticket in its subpartition table but is not part of the key.
    final String merge = "MERGE INTO TICKETS USING (VALUES (10, 4), (20, 0), (999, 1),"
        + " (150, 5)) AS s (I, P) ON TICKETS.TICKET_ID = s.I"
        + " WHEN MATCHED THEN UPDATE SET PRIORITY = s.P"
        + " WHEN NOT MATCHED THEN INSERT (TICKET_ID, PRIORITY) VALUES (s.I, s.P)";
    try (Connection c = Connector.SHARDSET.open(model)) {
      both(c, "INSERT INTO TICKETS VALUES " + String.join(", ", ticketRows(0)), 40);
      final String plan = ShardFixture.rows(c, "EXPLAIN PLAN FOR " + merge).get(0);
      assertTrue(plan.contains("rowWise=[routing column PRIORITY is not part of the primary"
          + " key [TICKET_ID]])"), plan);
      final String fits = merge.replace("(999, 1), ", "");
      both(c, fits, 3);
      assertSameAsOracle(c);
      audit();
      final SQLException e = assertThrows(SQLException.class,
          () -> c.createStatement().executeUpdate(merge));
      assertEquals("table S.TICKETS: no shard accepts key TICKET_ID = 999",
          InsertTestBase.message(e));
    }
  }

  @Test void updatedRoutingColumnMovesTheRowToItsNewShard() throws SQLException {
    // NAME is the key and places the row: 'a' lives on s0, 'c' on s1, 'q' on s3.
    final String merge = "MERGE INTO BY_NAME AS t USING (VALUES ('a', 'c'), ('q', 'b'),"
        + " ('x', 'y')) AS s (N, M) ON t.NAME = s.N WHEN MATCHED THEN UPDATE SET NAME = s.M"
        + " WHEN NOT MATCHED THEN INSERT VALUES (s.N, 'new')";
    try (Connection c = Connector.SHARDSET.open(model)) {
      both(c, "INSERT INTO BY_NAME VALUES ('a', 'from a'), ('q', 'from q')", 2);
      final String plan = ShardFixture.rows(c, "EXPLAIN PLAN FOR " + merge).get(0);
      assertTrue(plan.contains("rowWise=[it updates routing column NAME])"), plan);
      fixture.shards().resetCounters();
      both(c, merge, 3);
      assertEquals(1, received("s0").stream().filter(sql -> sql.startsWith("DELETE")).count(),
          received("s0").toString());
      assertTrue(received("s1").stream().anyMatch(sql -> sql.startsWith("INSERT")),
          received("s1").toString());
      assertSameAsOracle(c);
    }
    audit();
  }

  @Test void tableWithoutPrimaryKeyIsRefused() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "MERGE INTO NOTES USING (VALUES (1, 'a')) AS s (I, N) ON NOTES.ID = s.I"
              + " WHEN MATCHED THEN UPDATE SET NOTE = s.N"
              + " WHEN NOT MATCHED THEN INSERT VALUES (s.I, s.N)"));
      assertTrue(fullMessage(e).contains("MERGE into S.NOTES is not supported: the table has"
          + " no primary key to address its rows by"), fullMessage(e));
      assertEquals(0, rowsOnShards("NOTES"));
    }
  }

  @Test void mergeWithoutWhenMatchedIsRefused() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "MERGE INTO ORDERS USING (VALUES (1)) AS s (I) ON ORDERS.ID = s.I"
              + " WHEN NOT MATCHED THEN INSERT (ID) VALUES (s.I)"));
      assertTrue(fullMessage(e).contains("MERGE into ORDERS without WHEN MATCHED is not"
          + " supported: the plan does not say which source rows match; add WHEN MATCHED"
          + " THEN UPDATE SET, or use INSERT"), fullMessage(e));
    }
  }

  static String fullMessage(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append(" | ");
    }
    return b.toString();
  }

  @Test void upsertIntoIsRefusedOnShardSetConnections() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "UPSERT INTO ORDERS (ID, QTY) VALUES (1, 2)"));
      assertTrue(fullMessage(e).contains("UPSERT INTO ORDERS is not supported (Calcite would"
          + " run it as a plain INSERT); use MERGE INTO ORDERS USING (VALUES ...) s (...)"
          + " ON (primary key = s.key) WHEN MATCHED THEN UPDATE SET ... WHEN NOT MATCHED"
          + " THEN INSERT ..."), fullMessage(e));
      assertEquals(0, rowsOnShards("ORDERS"));
    }
  }

  @Test void upsertIntoIsAPlainInsertOnCalciteConnections() throws SQLException {
    try (Connection c = Connector.CALCITE.open(model); Statement s = c.createStatement()) {
      assertEquals(1, s.executeUpdate("UPSERT INTO ORDERS (ID, QTY) VALUES (1, 2)"));
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "UPSERT INTO ORDERS (ID, QTY) VALUES (1, 3)"));
      assertTrue(fullMessage(e).contains("failed: "), fullMessage(e));
      assertEquals(List.of("1, NULL, NULL, 2"), ShardFixture.rows(c, "SELECT * FROM ORDERS"));
    }
  }

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
}
