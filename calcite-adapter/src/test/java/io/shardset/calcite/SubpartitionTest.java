package io.shardset.calcite;

import io.shardset.model.ModelException;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.CountingShards;
import io.shardset.testing.QueryAssert;
import io.shardset.testing.QueryOutcome;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;
import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables with range subpartitions: results equal the unsharded oracle's, and each predicate
 * shape reaches only the shards and the subpartition tables it can match, counted at the
 * shards from the SQL they receive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubpartitionTest {
  /** The default chunk count: 120 per shard. */
  private static final int CHUNKS = 480;
  private static final Set<String> ALL_SHARDS = Set.of("s0", "s1", "s2", "s3");
  private static final List<String> SHIPMENT_PARTS = List.of("p2019", "p2020", "p2021");
  private static final List<String> TICKET_PARTS = List.of("low", "mid", "high");

  ShardFixture fixture;
  Connection connection;
  String model;

  /** The databases the shards and the oracle live on. */
  Backend backend() {
    return Backend.H2;
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = SubpartitionData.fixture(backend());
    model = fixture.model(SubpartitionData.TABLES);
    try (Connection loading = ShardFixture.connect(model)) {
      SubpartitionData.load(fixture, loading);
    }
    connection = ShardFixture.connect(model);
  }

  @AfterAll void tearDown() throws SQLException {
    if (connection != null) {
      connection.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  /** The shards a statement reached and the subpartitions each of them read. */
  private record Reach(Set<String> shards, Set<String> subpartitions) {
  }

  private static Reach reach(Set<String> shards, String... subpartitions) {
    return new Reach(shards, Set.of(subpartitions));
  }

  private static Reach nothing() {
    return new Reach(Set.of(), Set.of());
  }

  @Test void loadingPutsEachRowInItsSubpartitionOnItsShard() throws SQLException {
    int rows = 0;
    for (String shard : fixture.shards().names()) {
      try (Connection c = fixture.shards().endpoint(shard).connect();
           Statement s = c.createStatement()) {
        rows += count(s, "SELECT COUNT(*) FROM SHIPMENTS_P2019 WHERE SHIP_DATE >= DATE"
            + " '2020-01-01'");
        rows += count(s, "SELECT COUNT(*) FROM SHIPMENTS_P2020 WHERE SHIP_DATE < DATE"
            + " '2020-01-01' OR SHIP_DATE >= DATE '2021-01-01'");
        rows += count(s, "SELECT COUNT(*) FROM SHIPMENTS_P2021 WHERE SHIP_DATE < DATE"
            + " '2021-01-01'");
        rows += count(s, "SELECT COUNT(*) FROM TICKETS_MID WHERE PRIORITY NOT IN (2, 3)");
        assertTrue(count(s, "SELECT COUNT(*) FROM SHIPMENTS_P2020") > 0, shard);
        assertTrue(count(s, "SELECT COUNT(*) FROM TICKETS_HIGH") > 0, shard);
      }
    }
    assertEquals(0, rows, "rows in the wrong subpartition");
    assertEquals(List.of("1503"),
        rows("SELECT COUNT(*) FROM SHIPMENTS"));
  }

  private static int count(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test void eachPredicateShapeReadsOnlyTheSubpartitionsItCanMatch() throws SQLException {
    final String select = "SELECT * FROM SHIPMENTS WHERE ";
    assertReach(reach(ALL_SHARDS, "p2020"), select + "SHIP_DATE = DATE '2020-05-01'");
    assertReach(reach(ALL_SHARDS, "p2020"), select + "DATE '2020-05-01' = SHIP_DATE");
    assertReach(reach(ALL_SHARDS, "p2019", "p2021"),
        select + "SHIP_DATE IN (DATE '2019-03-01', DATE '2021-03-01')");
    assertReach(reach(ALL_SHARDS, "p2019"), select + "SHIP_DATE < DATE '2020-01-01'");
    assertReach(reach(ALL_SHARDS, "p2019", "p2020"),
        select + "SHIP_DATE <= DATE '2020-01-01'");
    assertReach(reach(ALL_SHARDS, "p2021"), select + "SHIP_DATE > DATE '2020-12-31'");
    assertReach(reach(ALL_SHARDS, "p2020", "p2021"),
        select + "SHIP_DATE >= DATE '2020-12-31'");
    assertReach(reach(ALL_SHARDS, "p2020"),
        select + "SHIP_DATE BETWEEN DATE '2020-02-01' AND DATE '2020-03-01'");
    assertReach(reach(ALL_SHARDS, "p2019", "p2021"),
        select + "SHIP_DATE < DATE '2019-06-01' OR SHIP_DATE >= DATE '2021-06-01'");
    assertReach(reach(ALL_SHARDS, "p2020"), select
        + "SHIP_DATE >= DATE '2020-03-01' AND SHIP_DATE < DATE '2020-04-01' AND WEIGHT > 10");
    // Through a projection and an alias.
    assertReach(reach(ALL_SHARDS, "p2021"), "SELECT D FROM (SELECT SHIP_DATE AS D, WEIGHT"
        + " FROM SHIPMENTS) AS x WHERE D >= DATE '2021-02-01'");
    // Nothing to prune by.
    assertReach(reach(ALL_SHARDS, "p2019", "p2020", "p2021"), select + "WEIGHT > 10");
    assertReach(reach(ALL_SHARDS, "p2019", "p2020", "p2021"),
        select + "SHIP_DATE = DATE '2020-05-01' OR WEIGHT > 490");
    assertReach(reach(ALL_SHARDS, "p2019", "p2020", "p2021"),
        select + "CAST(SHIP_DATE AS VARCHAR(10)) LIKE '2020%'");
    // Calcite turns a year into a date range, which prunes.
    assertReach(reach(ALL_SHARDS, "p2020"), select + "EXTRACT(YEAR FROM SHIP_DATE) = 2020");
    // Contradictions and values outside every range reach no shard at all.
    assertReach(nothing(), select
        + "SHIP_DATE = DATE '2019-05-01' AND SHIP_DATE = DATE '2021-05-01'");
    assertReach(nothing(), "SELECT * FROM TICKETS WHERE PRIORITY = 7");
    assertReach(nothing(), "SELECT COUNT(*) FROM TICKETS WHERE PRIORITY >= 6");
  }

  @Test void shardKeyAndSubpartitionColumnPruneTogether() throws SQLException {
    assertReach(reach(hash(42), "p2021"), "SELECT * FROM SHIPMENTS"
        + " WHERE CUSTOMER_ID = 42 AND SHIP_DATE >= DATE '2021-01-01'");
    assertReach(reach(hash(42, 7), "p2019", "p2020"), "SELECT * FROM SHIPMENTS"
        + " WHERE CUSTOMER_ID IN (42, 7) AND SHIP_DATE < DATE '2020-07-01'");
    assertReach(reach(Set.of("s1", "s2"), "mid"), "SELECT * FROM TICKETS"
        + " WHERE TICKET_ID BETWEEN 150 AND 250 AND PRIORITY IN (2, 3)");
    assertReach(reach(Set.of("s3"), "low", "high"), "SELECT * FROM TICKETS"
        + " WHERE TICKET_ID >= 300 AND (PRIORITY < 1 OR PRIORITY = 5)");
  }

  @Test void pushedOperatorsStayRight() throws SQLException {
    final String[] unordered = {
        "SELECT * FROM SHIPMENTS WHERE SHIP_DATE BETWEEN DATE '2019-12-20'"
            + " AND DATE '2020-01-10'",
        "SELECT CUSTOMER_ID, COUNT(*), SUM(WEIGHT) FROM SHIPMENTS"
            + " WHERE SHIP_DATE >= DATE '2020-06-01' GROUP BY CUSTOMER_ID",
        "SELECT CARRIER, COUNT(*), MIN(SHIP_DATE), MAX(WEIGHT) FROM SHIPMENTS"
            + " WHERE SHIP_DATE < DATE '2020-03-01' GROUP BY CARRIER",
        "SELECT COUNT(*), SUM(WEIGHT) FROM SHIPMENTS WHERE CUSTOMER_ID = 42"
            + " AND SHIP_DATE >= DATE '2020-01-01'",
        "SELECT COUNT(*), SUM(WEIGHT) FROM SHIPMENTS WHERE SHIP_DATE = DATE '2018-01-01'",
        "SELECT COUNT(*) FROM SHIPMENTS WHERE CUSTOMER_ID = 42"
            + " AND SHIP_DATE = DATE '2018-01-01'",
        "SELECT SHIP_DATE, COUNT(*) FROM SHIPMENTS GROUP BY SHIP_DATE"
            + " HAVING SHIP_DATE > DATE '2021-11-01'",
        "SELECT c.NAME, s.SHIPMENT_ID, s.SHIP_DATE FROM SHIPMENTS s"
            + " JOIN CUSTOMERS c ON s.CUSTOMER_ID = c.CUSTOMER_ID"
            + " WHERE s.SHIP_DATE >= DATE '2021-06-01' AND c.REGION = 'EU'",
        "SELECT c.NAME, s.SHIPMENT_ID FROM CUSTOMERS c"
            + " JOIN SHIPMENTS s ON s.CUSTOMER_ID = c.CUSTOMER_ID"
            + " WHERE s.SHIP_DATE < DATE '2019-02-01'",
        "SELECT c.CUSTOMER_ID, COUNT(s.SHIPMENT_ID) FROM SHIPMENTS s"
            + " LEFT JOIN CUSTOMERS c ON s.CUSTOMER_ID = c.CUSTOMER_ID"
            + " WHERE s.SHIP_DATE = DATE '2020-01-01' GROUP BY c.CUSTOMER_ID",
        "SELECT a.SHIPMENT_ID, b.SHIPMENT_ID FROM SHIPMENTS a JOIN SHIPMENTS b"
            + " ON a.CUSTOMER_ID = b.CUSTOMER_ID WHERE a.SHIP_DATE = DATE '2020-01-01'"
            + " AND b.SHIP_DATE > DATE '2021-12-01'",
        "SELECT PRIORITY, COUNT(*) FROM TICKETS WHERE PRIORITY >= 3 GROUP BY PRIORITY",
    };
    for (String sql : unordered) {
      sql(sql).returnsUnsharded();
    }
    final String[] ordered = {
        "SELECT SHIPMENT_ID, SHIP_DATE FROM SHIPMENTS WHERE SHIP_DATE >= DATE '2020-12-25'"
            + " ORDER BY SHIP_DATE, SHIPMENT_ID LIMIT 10",
        "SELECT SHIPMENT_ID FROM SHIPMENTS WHERE SHIP_DATE < DATE '2020-02-01'"
            + " ORDER BY WEIGHT DESC NULLS LAST, SHIPMENT_ID LIMIT 5 OFFSET 3",
        "SELECT * FROM (SELECT SHIPMENT_ID, SHIP_DATE FROM SHIPMENTS ORDER BY SHIP_DATE,"
            + " SHIPMENT_ID LIMIT 20) AS x WHERE SHIP_DATE > DATE '2019-01-02'",
        "SELECT TICKET_ID FROM TICKETS WHERE PRIORITY = 4 ORDER BY TICKET_ID",
    };
    for (String sql : ordered) {
      sql(sql).returnsUnshardedInOrder();
    }
    assertReach(reach(ALL_SHARDS, "p2021"), unordered[7]);
    assertReach(reach(ALL_SHARDS, "p2020", "p2021"), ordered[0]);
  }

  @Test void parametersSelectSubpartitionsAtExecution() throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT SHIPMENT_ID, WEIGHT FROM SHIPMENTS WHERE SHIP_DATE >= ?")) {
      for (String from : new String[] {"2021-01-01", "2019-06-01", "2020-12-31",
          "2021-01-01", "2020-01-01"}) {
        p.setDate(1, Date.valueOf(from));
        final String literal = "SELECT SHIPMENT_ID, WEIGHT FROM SHIPMENTS WHERE SHIP_DATE"
            + " >= DATE '" + from + "'";
        assertEquals(sorted(fixture.oracleRows(literal)), sorted(rows(p)), from);
        assertEquals(reach(literal), reach(p), from);
      }
    }
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT COUNT(*) FROM SHIPMENTS WHERE CUSTOMER_ID = ? AND SHIP_DATE BETWEEN ? AND ?")) {
      p.setLong(1, 42);
      p.setDate(2, Date.valueOf("2020-01-01"));
      p.setDate(3, Date.valueOf("2020-01-01"));
      assertEquals(List.of("1"), rows(p));
      assertEquals(reach(hash(42), "p2020"), reach(p));
      // No subpartition: the shard still answers its count, from one subpartition table.
      p.setDate(2, Date.valueOf("2018-01-01"));
      p.setDate(3, Date.valueOf("2018-12-01"));
      assertEquals(List.of("0"), rows(p));
      assertEquals(reach(hash(42), "p2019"), reach(p));
    }
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT TICKET_ID FROM TICKETS WHERE PRIORITY IN (?, ?) AND TICKET_ID < ?")) {
      p.setInt(1, 0);
      p.setInt(2, 5);
      p.setInt(3, 150);
      assertEquals(reach(Set.of("s0", "s1"), "low", "high"), reach(p));
      p.setString(1, "3");
      p.setInt(2, 2);
      assertEquals(reach(Set.of("s0", "s1"), "mid"), reach(p));
      assertEquals(sorted(fixture.oracleRows("SELECT TICKET_ID FROM TICKETS"
          + " WHERE PRIORITY IN (3, 2) AND TICKET_ID < 150")), sorted(rows(p)));
      p.setInt(1, 8);
      p.setInt(2, 9);
      assertEquals(nothing(), reach(p));
    }
  }

  @Test void planCacheSharesPlansAndPrunesByEachStatementsValues() throws SQLException {
    try (Connection cached = Connector.SHARDSET.open(model)) {
      final String[] priorities = {"1", "4", "3", "1"};
      final String[] expected = {"low", "high", "mid", "low"};
      for (int i = 0; i < priorities.length; i++) {
        final String sql = "SELECT TICKET_ID, CUSTOMER_ID FROM TICKETS WHERE PRIORITY = "
            + priorities[i];
        try (PreparedStatement p = cached.prepareStatement(sql)) {
          assertEquals(0, p.getParameterMetaData().getParameterCount(), sql);
          assertEquals(reach(ALL_SHARDS, expected[i]), reach(p), sql);
          assertEquals(sorted(fixture.oracleRows(sql)), sorted(rows(p)), sql);
        }
      }
    }
  }

  @Test void explainShowsShardsSubpartitionsAndPhysicalTables() throws SQLException {
    final String plan = explain("SELECT SHIPMENT_ID FROM SHIPMENTS"
        + " WHERE CUSTOMER_ID = 42 AND SHIP_DATE >= DATE '2020-06-01'");
    assertTrue(plan.contains("shards=[1 of 4: s" + shardOfLong(42, CHUNKS, 4)
        + "], subpartitions=[2 of 3: p2020, p2021], sql"), plan);
    final String one = explain("SELECT * FROM TICKETS WHERE PRIORITY = 5");
    assertTrue(one.contains("shards=[4 of 4: s0, s1, s2, s3], subpartitions=[1 of 3: high],"
        + " sql"), one);
    if (backend() == Backend.H2) {
      assertTrue(plan.contains("sql=[SELECT \"SHIPMENT_ID\" FROM (SELECT * FROM"
          + " \"SHIPMENTS_P2020\" UNION ALL SELECT * FROM \"SHIPMENTS_P2021\") AS \"t\""
          + " WHERE \"CUSTOMER_ID\" = 42 AND \"SHIP_DATE\" >= DATE '2020-06-01']"), plan);
      assertTrue(one.contains("sql=[SELECT * FROM \"TICKETS_HIGH\" WHERE \"PRIORITY\" = 5]"),
          one);
    }
    final String none = explain("SELECT * FROM TICKETS WHERE PRIORITY = 9");
    assertTrue(none.contains("shards=[0 of 4], subpartitions=[0 of 3]"), none);
    final String dynamic = explain("SELECT * FROM TICKETS WHERE PRIORITY < ?");
    assertTrue(dynamic.contains("subpartitions=[at execution by ?0 of 3]"), dynamic);
  }

  @Test void aRowOutsideEveryRangeCannotBeLoaded() throws SQLException {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> fixture.load(connection, "TICKETS", List.<Object[]>of(
            new Object[] {999, 1L, 9, LocalDate.of(2021, 1, 1)})));
    assertEquals("table S.TICKETS: no subpartition accepts PRIORITY = 9", e.getMessage());
    assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM TICKETS WHERE TICKET_ID = 999"));
  }

  @Test void aMissingSubpartitionTableIsOneClearError() throws SQLException {
    fixture.shards().execute("s0", "CREATE TABLE TICKETS_TOP (TICKET_ID INTEGER, CUSTOMER_ID"
        + " BIGINT, PRIORITY INTEGER, OPENED DATE)");
    fixture.shards().execute("s1", "CREATE TABLE TICKETS_TOP (TICKET_ID INTEGER, CUSTOMER_ID"
        + " BIGINT, PRIORITY INTEGER, OPENED DATE)");
    final String tables = SubpartitionData.TABLES.replace("\"from\": 4, \"to\": 6}",
        "\"from\": 4, \"to\": 6}, {\"name\": \"top\", \"from\": 6}");
    final Exception e = assertThrows(Exception.class,
        () -> ShardFixture.connect(fixture.model(tables)).close());
    assertEquals("Invalid ShardSet model: schema 'S', table 'TICKETS', field 'subpartitions':"
        + " table 'tickets_top' not found on shard 's2'", rootMessage(e));
    fixture.shards().execute("s2", "CREATE TABLE TICKETS_TOP (TICKET_ID INTEGER, CUSTOMER_ID"
        + " BIGINT, PRIORITY INTEGER)");
    final Exception columns = assertThrows(Exception.class,
        () -> ShardFixture.connect(fixture.model(tables)).close());
    // Physical names are as the shard stores them: upper case on H2, lower on PostgreSQL.
    assertEquals("Invalid ShardSet model: schema 'S', table 'TICKETS', field 'subpartitions':"
        + " on shard 's2', subpartition table 'TICKETS_TOP' has 3 columns (TICKET_ID,"
        + " CUSTOMER_ID, PRIORITY) where 'TICKETS_LOW' has 4 (TICKET_ID, CUSTOMER_ID,"
        + " PRIORITY, OPENED)", rootMessage(columns).replace("tickets_top", "TICKETS_TOP")
        .replace("tickets_low", "TICKETS_LOW"));
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (!(t instanceof ModelException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }

  private String explain(String sql) throws SQLException {
    return PlanTest.explain(connection, sql);
  }

  private void assertReach(Reach expected, String sql) {
    assertEquals(expected, reach(sql(sql).returnsUnsharded().outcome()), sql);
  }

  private Reach reach(String sql) {
    return reach(sql(sql).outcome());
  }

  private QueryAssert sql(String sql) {
    return fixture.sql(connection, sql);
  }

  /** Runs a statement and reads, at the shards, which received it and which subpartition
   * tables their SQL named. */
  private Reach reach(PreparedStatement p) throws SQLException {
    final CountingShards shards = fixture.shards();
    shards.resetCounters();
    rows(p);
    final Map<String, List<CountingShards.Execution>> executions = new TreeMap<>();
    for (String shard : shards.names()) {
      executions.put(shard, shards.executions(shard));
    }
    return reach(executions);
  }

  private Reach reach(QueryOutcome outcome) {
    return reach(outcome.executions());
  }

  /** Which shards received statements, and which subpartition tables their SQL named; every
   * shard reached must have read the same ones. */
  private static Reach reach(Map<String, List<CountingShards.Execution>> executions) {
    final TreeMap<String, Set<String>> read = new TreeMap<>();
    for (Map.Entry<String, List<CountingShards.Execution>> shard : executions.entrySet()) {
      for (CountingShards.Execution execution : shard.getValue()) {
        final Set<String> parts = read.computeIfAbsent(shard.getKey(), s -> new TreeSet<>());
        final String text = execution.sql().toUpperCase(Locale.ROOT);
        addNamed(text, "SHIPMENTS_", SHIPMENT_PARTS, parts);
        addNamed(text, "TICKETS_", TICKET_PARTS, parts);
      }
    }
    assertEquals(1, new TreeSet<>(read.values().stream().map(Object::toString).toList())
        .size() + (read.isEmpty() ? 1 : 0), "shards read different subpartitions: " + read);
    return new Reach(read.keySet(), read.isEmpty() ? Set.of() : read.firstEntry().getValue());
  }

  private static void addNamed(String sql, String prefix, List<String> names,
      Set<String> found) {
    for (String name : names) {
      if (sql.contains(prefix + name.toUpperCase(Locale.ROOT))) {
        found.add(name);
      }
    }
  }

  private List<String> rows(String sql) throws SQLException {
    return ShardFixture.rows(connection, sql);
  }

  private static List<String> rows(PreparedStatement p) throws SQLException {
    try (ResultSet rs = p.executeQuery()) {
      return ShardFixture.rows(rs);
    }
  }

  private static Set<String> hash(long... ids) {
    final Set<String> shards = new TreeSet<>();
    for (long id : ids) {
      shards.add("s" + shardOfLong(id, CHUNKS, 4));
    }
    return shards;
  }
}
