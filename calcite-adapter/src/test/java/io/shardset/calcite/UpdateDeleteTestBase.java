package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.CountingShards;
import io.shardset.testing.ExpectedPlacement;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UPDATE and DELETE through ShardSet compared with the same statements on an unsharded copy,
 * on four shards of one backend: after each statement the counts and every logical table are
 * equal, and every row sits on the shard and physical table its key routes to. What reaches
 * each shard is counted at the shard: a write reaches the shards a read with its WHERE clause
 * reaches. A row whose shard key changes moves, once, or not at all when its statement fails.
 */
abstract class UpdateDeleteTestBase extends WriteTestBase {
  /** Fills every table, on ShardSet and on the oracle alike. */
  @BeforeEach void fill() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement();
        Statement oracle = fixture.oracle().createStatement()) {
      for (String sql : InsertTestBase.statements(11)) {
        s.executeUpdate(sql);
        oracle.executeUpdate(sql);
      }
    }
  }

  /**
   * UPDATE and DELETE statements of every predicate shape: the key by =, IN, range and OR, a
   * non-key predicate, none, NULL comparisons, string, decimal, date and timestamp values,
   * SET expressions the shards compute and ones they cannot (left to Calcite, row by row),
   * subqueries, and SETs of the shard key, a list key and the subpartition column (rows
   * move).
   */
  static List<String> statements() {
    return List.of(
        "UPDATE ORDERS SET QTY = 5 WHERE ID = 1001",
        "UPDATE ORDERS SET CUSTOMER = 'x''y' WHERE ID IN (1002, 1003, 0, 77)",
        "UPDATE ORDERS SET QTY = QTY + 1 WHERE ID BETWEEN 1005 AND 1010 AND QTY < 1000",
        "UPDATE ORDERS SET QTY = QTY * 2 WHERE QTY < 100 AND QTY > -100",
        "DELETE FROM ORDERS WHERE ID = 1004 OR ID = 1012",
        "UPDATE ORDERS SET ORDERED = DATE '2001-02-03' WHERE CUSTOMER IS NULL",
        "UPDATE ORDERS SET CUSTOMER = NULL WHERE ORDERED = DATE '1970-01-01'",
        "UPDATE ORDERS SET CREATED = TIMESTAMP '2020-01-01 10:00:00.123'"
            + " WHERE CREATED < TIMESTAMP '2000-01-01 00:00:00'",
        "UPDATE ORDERS SET AMOUNT = AMOUNT - 0.01 WHERE AMOUNT > 0 AND AMOUNT < 1000",
        "UPDATE ORDERS SET CUSTOMER = TRIM(CUSTOMER) WHERE CUSTOMER LIKE ' %'",
        "UPDATE ORDERS SET QTY = MOD(ID, 7) WHERE CUSTOMER = 'plain'",
        "UPDATE ORDERS SET ID = ID + 100000 WHERE QTY = 7 OR ID = 1020",
        "UPDATE ORDERS SET ID = -ID, QTY = 1 WHERE ID = 1015",
        "DELETE FROM ORDERS WHERE AMOUNT = 123.45",
        "DELETE FROM ORDERS WHERE ID IN (SELECT TICKET_ID + 1000 FROM TICKETS"
            + " WHERE PRIORITY = 2)",
        "UPDATE ORDERS SET QTY = 0 WHERE ID IN (SELECT TICKET_ID + 1000 FROM TICKETS)",
        "DELETE FROM ORDERS WHERE CUSTOMER <> 'plain' AND ORDERED IS NOT NULL",
        "UPDATE ORDERS SET AMOUNT = 0.50",
        "UPDATE BY_DATE SET NOTE = 'old' WHERE D < DATE '2000-01-01'",
        "DELETE FROM BY_DATE WHERE D >= DATE '2030-01-01'",
        "UPDATE BY_TS SET NOTE = NULL WHERE TS = TIMESTAMP '2021-06-01 00:00:00.000'",
        "DELETE FROM BY_TS WHERE TS > TIMESTAMP '2030-01-01 00:00:00'",
        "UPDATE BY_DEC SET NOTE = 'cent' WHERE AMOUNT = 0.01",
        "UPDATE BY_DEC SET AMOUNT = 7.77 WHERE AMOUNT = 0.00",
        "DELETE FROM BY_DEC WHERE AMOUNT < 0",
        "UPDATE BY_NAME SET NOTE = UPPER(NOTE) WHERE NAME IN ('a', 'c', 'q')",
        "UPDATE BY_NAME SET NAME = 'zz' WHERE NAME = 'a'",
        "UPDATE BY_NAME SET NAME = 'a' WHERE NAME = 'e'",
        "DELETE FROM BY_NAME WHERE NAME = 'b'",
        "UPDATE REGIONS SET NAME = 'Europa' WHERE REGION = 'EU'",
        "UPDATE REGIONS SET NAME = NAME || '!'",
        "UPDATE REGIONS SET NAME = TRIM(NAME) || '?' WHERE REGION = 'EU'",
        "DELETE FROM REGIONS WHERE REGION = 'US'",
        "UPDATE TICKETS SET TITLE = 'urgent' WHERE PRIORITY = 4",
        "UPDATE TICKETS SET TITLE = 'low' WHERE PRIORITY < 3 AND TICKET_ID >= 200",
        "UPDATE TICKETS SET PRIORITY = 1 WHERE TICKET_ID = 50",
        "UPDATE TICKETS SET PRIORITY = PRIORITY + 3 WHERE PRIORITY < 2",
        "UPDATE TICKETS SET TICKET_ID = TICKET_ID + 105 WHERE TICKET_ID < 60",
        "DELETE FROM TICKETS WHERE PRIORITY = 5",
        "DELETE FROM TICKETS WHERE TICKET_ID = 390");
  }

  void differential(Connector connector) throws SQLException {
    try (Connection c = connector.open(model); Statement s = c.createStatement();
        Statement oracle = fixture.oracle().createStatement()) {
      for (String sql : statements()) {
        final int expected = oracle.executeUpdate(sql);
        assertEquals(expected, s.executeUpdate(sql), sql);
        assertSameAsOracle(c, sql);
      }
    }
    audit();
  }

  /** Compares the table a statement changes (every table, for another text) with the
   * oracle's. */
  void assertSameAsOracle(Connection c, String after) throws SQLException {
    final String[] words = after.split(" ");
    final String changed = words[0].equals("UPDATE") ? words[1]
        : words[0].equals("DELETE") ? words[2] : null;
    for (String table : changed == null ? TABLES : List.of(changed)) {
      final List<String> expected = sorted(fixture.oracleRows("SELECT * FROM " + table));
      assertEquals(expected, sorted(ShardFixture.rows(c, "SELECT * FROM " + table)),
          table + " after " + after);
    }
  }

  @Test void differentialOnShardSetConnections() throws SQLException {
    differential(Connector.SHARDSET);
  }

  @Test void differentialOnCalciteConnections() throws SQLException {
    differential(Connector.CALCITE);
  }

  @Test void preparedStatementsRouteEachExecution() throws SQLException {
    final String update = "UPDATE ORDERS SET QTY = ?, CUSTOMER = ? WHERE ID = ?";
    final String delete = "DELETE FROM TICKETS WHERE PRIORITY = ? AND TICKET_ID < ?";
    final String move = "UPDATE ORDERS SET ID = ? WHERE ID = ?";
    try (Connection c = Connector.SHARDSET.open(model);
        PreparedStatement u = c.prepareStatement(update);
        PreparedStatement ou = fixture.oracle().prepareStatement(update);
        PreparedStatement d = c.prepareStatement(delete);
        PreparedStatement od = fixture.oracle().prepareStatement(delete);
        PreparedStatement m = c.prepareStatement(move);
        PreparedStatement om = fixture.oracle().prepareStatement(move)) {
      for (int i = 0; i < 12; i++) {
        for (PreparedStatement p : List.of(u, ou)) {
          p.setInt(1, i);
          p.setString(2, i % 3 == 0 ? null : "prepared ü " + i);
          p.setLong(3, 1000 + i * 3);
        }
        assertEquals(ou.executeUpdate(), u.executeUpdate(), "update " + i);
        for (PreparedStatement p : List.of(d, od)) {
          p.setInt(1, i % 6);
          p.setInt(2, 100 * (i % 5));
        }
        assertEquals(od.executeUpdate(), d.executeUpdate(), "delete " + i);
        for (PreparedStatement p : List.of(m, om)) {
          p.setLong(1, 500_000 + i);
          p.setLong(2, 1000 + i * 2);
        }
        assertEquals(om.executeUpdate(), m.executeUpdate(), "move " + i);
      }
      assertSameAsOracle(c, "prepared statements");
    }
    audit();
  }

  /** The UPDATE and DELETE statements each shard ran since {@code before}, by shard. */
  private Map<String, Integer> writesSince(Map<String, Integer> before) {
    final Map<String, Integer> writes = new TreeMap<>();
    final CountingShards shards = fixture.shards();
    for (String shard : shards.names()) {
      final List<CountingShards.Execution> all = shards.executions(shard);
      int count = 0;
      for (CountingShards.Execution e : all.subList(before.getOrDefault(shard, 0),
          all.size())) {
        if (e.sql().startsWith("UPDATE") || e.sql().startsWith("DELETE")) {
          count++;
        }
      }
      if (count > 0) {
        writes.put(shard, count);
      }
    }
    return writes;
  }

  private Map<String, Integer> executionsNow() {
    final Map<String, Integer> now = new TreeMap<>();
    for (String shard : fixture.shards().names()) {
      now.put(shard, fixture.shards().executions(shard).size());
    }
    return now;
  }

  /** Runs a write and returns the UPDATE and DELETE statements each shard received. */
  private Map<String, Integer> reach(Connection c, String sql, Object... parameters)
      throws SQLException {
    final Map<String, Integer> before = executionsNow();
    try (PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        p.setObject(i + 1, parameters[i]);
      }
      p.executeUpdate();
    }
    return writesSince(before);
  }

  private static String hashShard(long id) {
    return "s" + ExpectedPlacement.shardOfLong(id, CHUNKS, SHARDS);
  }

  @Test void writesReachWhatTheirReadReaches() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model)) {
      assertEquals(Map.of(hashShard(1001), 1), reach(c,
          "UPDATE ORDERS SET QTY = 3 WHERE ID = 1001"));
      assertEquals(Map.of(hashShard(1002), 1), reach(c,
          "UPDATE ORDERS SET QTY = ? WHERE ID = ?", 4, 1002L));
      assertEquals(Map.of(hashShard(1003), 1), reach(c,
          "DELETE FROM ORDERS WHERE ID = ?", 1003L));
      final Map<String, Integer> two = new TreeMap<>();
      two.merge(hashShard(1005), 1, Integer::max);
      two.merge(hashShard(1006), 1, Integer::max);
      assertEquals(two, reach(c, "UPDATE ORDERS SET QTY = 3 WHERE ID IN (1005, 1006)"));
      assertEquals(two, reach(c, "DELETE FROM ORDERS WHERE ID = ? OR ID = ?", 1005L, 1006L));
      assertEquals(Map.of("s0", 1, "s1", 1, "s2", 1, "s3", 1), reach(c,
          "UPDATE ORDERS SET QTY = 3 WHERE CUSTOMER = 'plain'"));
      assertEquals(Map.of("s0", 1, "s1", 1, "s2", 1, "s3", 1), reach(c,
          "DELETE FROM ORDERS WHERE QTY = ?", 99));
      // TICKETS: shard by TICKET_ID range, subpartition table by PRIORITY.
      assertEquals(Map.of("s2", 1), reach(c,
          "UPDATE TICKETS SET TITLE = 'x' WHERE TICKET_ID = 250 AND PRIORITY = 1"));
      assertEquals(Map.of("s0", 1, "s1", 1, "s2", 1, "s3", 1), reach(c,
          "UPDATE TICKETS SET TITLE = 'y' WHERE PRIORITY = 4"));
      assertEquals(Map.of("s0", 2, "s1", 2, "s2", 2, "s3", 2), reach(c,
          "UPDATE TICKETS SET TITLE = 'y' WHERE TITLE = 'none'"));
      assertEquals(Map.of("s1", 1), reach(c,
          "DELETE FROM TICKETS WHERE TICKET_ID = ? AND PRIORITY = ?", 150, 5));
      assertEquals(Map.of("s0", 1, "s1", 1, "s2", 1, "s3", 1), reach(c,
          "UPDATE REGIONS SET NAME = 'x' WHERE REGION = 'EU'"));
    }
  }

  @Test void explainShowsPushedStatements() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model)) {
      final String point = String.join("\n", ShardFixture.rows(c, "EXPLAIN PLAN FOR"
          + " UPDATE ORDERS SET QTY = QTY + 1 WHERE ID = 1001"));
      assertTrue(point.startsWith("EnumerableShardPushedModify(table=[S.ORDERS],"
          + " operation=[UPDATE], updateColumnList=[[QTY]], shards=[1 of 4: "
          + hashShard(1001) + "], sql=[UPDATE "), point);
      final String param = String.join("\n", ShardFixture.rows(c, "EXPLAIN PLAN FOR"
          + " DELETE FROM ORDERS WHERE ID = ?"));
      assertTrue(param.contains("shards=[at execution by ?0 of 4]"), param);
      final String sub = String.join("\n", ShardFixture.rows(c, "EXPLAIN PLAN FOR"
          + " UPDATE TICKETS SET TITLE = 'u' WHERE PRIORITY = 4 AND TICKET_ID < 200"));
      assertTrue(sub.contains("shards=[2 of 4: s0, s1], subpartitions=[1 of 2: HIGH]"), sub);
      assertTrue(sub.toUpperCase(java.util.Locale.ROOT).contains("TICKETS_HIGH"), sub);
      assertTrue(!sub.toUpperCase(java.util.Locale.ROOT).contains("TICKETS_LOW"), sub);
      final String rowWise = String.join("\n", ShardFixture.rows(c, "EXPLAIN PLAN FOR"
          + " UPDATE ORDERS SET ID = ID + 1 WHERE ID = 1001"));
      assertTrue(rowWise.startsWith("EnumerableShardTableModify(table=[[S, ORDERS]],"
          + " operation=[UPDATE], updateColumnList=[[ID]]"), rowWise);
    }
  }

  /** The rows of a physical table on each shard, as "shard: row", read past ShardSet. */
  List<String> placed(String physicalTable) throws SQLException {
    final List<String> placed = new ArrayList<>();
    for (String shard : fixture.shards().names()) {
      try (Connection p = plain(shard)) {
        for (String row : ShardFixture.rows(p, "SELECT * FROM " + physicalTable)) {
          placed.add(shard + ": " + row);
        }
      }
    }
    return sorted(placed);
  }

  @Test void shardKeyUpdateMovesTheRowOnce() throws SQLException {
    final long from = 1001;
    long to = 2001;
    while (hashShard(to).equals(hashShard(from))) {
      to++;
    }
    final List<String> before = placed("ORDERS");
    final String row = before.stream().filter(r -> r.contains(": " + from + ", ")).findFirst()
        .orElseThrow();
    assertEquals(hashShard(from), row.substring(0, row.indexOf(':')));
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      assertEquals(1, s.executeUpdate("UPDATE ORDERS SET ID = " + to + " WHERE ID = "
          + from));
    }
    final List<String> expected = new ArrayList<>(before);
    expected.remove(row);
    expected.add(hashShard(to) + ": " + to + row.substring(row.indexOf(", ")));
    assertEquals(sorted(expected), placed("ORDERS"));
  }

  @Test void failedMoveLeavesTheRowWhereItWas() throws SQLException {
    // 1001 moves to the shard of 1002 under 1002's key, which is taken there: the insert
    // fails on that shard, and the delete on the old shard is rolled back with it.
    final List<String> before = placed("ORDERS");
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "UPDATE ORDERS SET ID = 1002 + (ID - ID) WHERE ID = 1001"));
      assertTrue(message(e).startsWith("table S.ORDERS: shard '" + hashShard(1002)
          + "' failed: "), message(e));
      assertTrue(e.getSQLState().startsWith("23"), e.getSQLState());
    }
    assertEquals(before, placed("ORDERS"));
  }

  @Test void keyChangeWithoutPrimaryKeyIsRefused() throws SQLException {
    final List<String> before = placed("BY_DATE");
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "UPDATE BY_DATE SET D = DATE '2040-01-01' WHERE D = DATE '1970-01-01'"));
      assertEquals("table S.BY_DATE: cannot UPDATE column D, which decides where a row"
          + " lives, without a primary key: a changed row is moved by deleting it by its"
          + " primary key where it is and inserting it where it belongs", message(e));
      assertEquals("0A000", e.getSQLState());
      final SQLException rowWise = assertThrows(SQLException.class, () -> s.executeUpdate(
          "DELETE FROM BY_DATE WHERE NOTE IN (SELECT NAME FROM REGIONS)"));
      assertEquals("table S.BY_DATE has no primary key: this DELETE cannot run inside the"
          + " shards, and its rows cannot be changed one by one", message(rowWise));
    }
    assertEquals(before, placed("BY_DATE"));
  }

  @Test void rollbackUndoesUpdatesDeletesAndMoves() throws SQLException {
    final List<String> before = placed("ORDERS");
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(1, s.executeUpdate("UPDATE ORDERS SET ID = 900001 WHERE ID = 1001"));
      assertEquals(1, s.executeUpdate("DELETE FROM ORDERS WHERE ID = 1002"));
      final int all = s.executeUpdate("UPDATE ORDERS SET QTY = 1");
      assertTrue(all > 10, "rows " + all);
      c.rollback();
      assertEquals(before, placed("ORDERS"));
    }
  }
}
