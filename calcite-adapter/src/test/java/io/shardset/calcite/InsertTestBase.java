package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.CountingShards;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;


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
abstract class InsertTestBase extends WriteTestBase {
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

  /**
   * One INSERT of ten thousand rows, with edge values, as loaders and ORMs' bulk inserts send
   * it: Calcite would compile the rows into a Java method larger than the JVM allows.
   */
  @Test void aTenThousandRowInsertIsOneStatement() throws SQLException {
    final StringBuilder insert = new StringBuilder(
        "INSERT INTO ORDERS (ID, CUSTOMER, AMOUNT, ORDERED, QTY) VALUES ");
    for (int i = 0; i < 10_000; i++) {
      insert.append(i == 0 ? "" : ", ").append('(').append(i * 7_919L - 5_000).append(", ")
          .append(i % 5 == 0 ? "NULL" : "'c''" + i + "'").append(", ")
          .append(i % 7 == 0 ? "-9999999999.99" : i + ".5").append(", ")
          .append(i % 3 == 0 ? "NULL" : "DATE '2001-02-03'").append(", ")
          .append(i % 11 == 0 ? "-2147483648" : String.valueOf(i)).append(')');
    }
    // The planning is the backends' same: Calcite's own connections are tried on H2 alone.
    for (Connector connector : backend() == Backend.H2
        ? List.of(Connector.SHARDSET, Connector.CALCITE) : List.of(Connector.SHARDSET)) {
      try (Connection c = connector.open(model); Statement s = c.createStatement()) {
        assertEquals(10_000, s.executeUpdate(insert.toString()));
        try (Statement oracle = fixture.oracle().createStatement()) {
          oracle.executeUpdate(insert.toString());
        }
        assertSameAsOracle(c);
        s.executeUpdate("DELETE FROM ORDERS");
        fixture.oracle().createStatement().executeUpdate("DELETE FROM ORDERS");
      }
    }
    audit();
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

  /** A batch in autocommit mode is one transaction: a row a shard refuses undoes the rows
   * before it, on every shard, and the batch sent again without it writes all. */
  @Test void aBatchInAutoCommitModeIsAllOrNothing() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model);
        PreparedStatement p = c.prepareStatement("INSERT INTO ORDERS (ID) VALUES (?)")) {
      for (long id : new long[] {11, 12, 13, 14, 15, 11}) {
        p.setLong(1, id);
        p.addBatch();
      }
      final SQLException e = assertThrows(SQLException.class, p::executeBatch);
      assertTrue(String.valueOf(e.getMessage()).contains("table S.ORDERS: shard"),
          e.getMessage());
      assertEquals(0, rowsOnShards("ORDERS"));
      p.clearBatch();
      for (long id = 11; id <= 15; id++) {
        p.setLong(1, id);
        p.addBatch();
      }
      assertArrayEquals(new int[] {1, 1, 1, 1, 1}, p.executeBatch());
      assertEquals(5, rowsOnShards("ORDERS"));
    }
    audit();
  }

  /** A batch's rows go to each shard as one JDBC batch, sent when the batch ends: 200 rows
   * over four shards are four INSERT executions, not 200 round trips. */
  @Test void aBatchSendsEachShardItsRowsAtOnce() throws SQLException {
    final List<Integer> before = insertsPerShard();
    try (Connection c = Connector.SHARDSET.open(model);
        PreparedStatement p = c.prepareStatement(
            "INSERT INTO ORDERS (ID, CUSTOMER, QTY) VALUES (?, ?, ?)");
        Statement oracle = fixture.oracle().createStatement()) {
      for (int id = 1; id <= 200; id++) {
        p.setLong(1, id);
        p.setString(2, "c" + id);
        p.setInt(3, id % 7);
        p.addBatch();
        oracle.executeUpdate("INSERT INTO ORDERS (ID, CUSTOMER, QTY) VALUES (" + id + ", 'c"
            + id + "', " + id % 7 + ")");
      }
      final int[] counts = p.executeBatch();
      assertEquals(200, counts.length);
      assertTrue(Arrays.stream(counts).allMatch(n -> n == 1));
      assertSameAsOracle(c);
    }
    final List<Integer> after = insertsPerShard();
    for (int shard = 0; shard < SHARDS; shard++) {
      assertEquals(1, after.get(shard) - before.get(shard), "INSERT executions on s" + shard);
    }
    audit();
  }

  /** A batch's statements of other kinds see the rows its INSERTs queued before them. */
  @Test void aMixedBatchKeepsItsOrder() throws SQLException {
    final List<String> batch = List.of(
        "INSERT INTO ORDERS (ID, QTY) VALUES (1, 1)",
        "INSERT INTO ORDERS (ID, QTY) VALUES (2, 2)",
        "UPDATE ORDERS SET QTY = QTY + 10 WHERE ID IN (1, 2)",
        "INSERT INTO ORDERS (ID, QTY) VALUES (3, 3)",
        "DELETE FROM ORDERS WHERE ID = 2",
        "INSERT INTO ORDERS (ID, QTY) VALUES (2, 20)",
        "INSERT INTO REGIONS VALUES ('EU', 'Europe')");
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement();
        Statement oracle = fixture.oracle().createStatement()) {
      for (String sql : batch) {
        s.addBatch(sql);
        oracle.executeUpdate(sql);
      }
      assertArrayEquals(new int[] {1, 1, 2, 1, 1, 1, 1}, s.executeBatch());
      assertSameAsOracle(c);
    }
    audit();
  }

  /** The INSERT executions each shard has received so far, by shard number. */
  private List<Integer> insertsPerShard() {
    final List<Integer> counts = new ArrayList<>();
    for (String shard : fixture.shards().names()) {
      counts.add((int) fixture.shards().executions(shard).stream()
          .filter(e -> e.sql().startsWith("INSERT")).count());
    }
    return counts;
  }

  /**
   * A statement in autocommit mode that sends one statement to one shard lets the shard
   * commit it as it runs it (no transaction of its own, no commit round trip, no XA); one that
   * writes two shards, and any statement of an open transaction, runs with the shard's
   * autocommit off. A refused row leaves nothing and the next statement works.
   */
  @Test void oneRowInAutoCommitModeIsCommittedByItsShard() throws SQLException {
    final CountingShards shards = fixture.shards();
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      shards.resetCounters();
      assertEquals(1, s.executeUpdate("INSERT INTO ORDERS (ID) VALUES (21)"));
      assertEquals(List.of(true), insertModes());
      shards.resetCounters();
      assertEquals(1, s.executeUpdate("UPDATE ORDERS SET QTY = 1 WHERE ID = 21"));
      assertEquals(List.of(true), modes("UPDATE"));
      shards.resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO ORDERS (ID) VALUES (21)"));
      assertTrue(String.valueOf(e.getMessage()).contains("table S.ORDERS: shard"),
          e.getMessage());
      assertEquals(1, rowsOnShards("ORDERS"));
      shards.resetCounters();
      assertEquals(2, s.executeUpdate("INSERT INTO ORDERS (ID) VALUES (22), (23)"));
      final List<Boolean> two = insertModes();
      assertTrue(!two.isEmpty() && !two.contains(true), two.toString());
      c.setAutoCommit(false);
      shards.resetCounters();
      assertEquals(1, s.executeUpdate("INSERT INTO ORDERS (ID) VALUES (24)"));
      assertEquals(List.of(false), insertModes());
      c.rollback();
      assertEquals(3, rowsOnShards("ORDERS"));
    }
    audit();
  }

  /** The autocommit mode of each INSERT the shards ran since the counters were reset. */
  private List<Boolean> insertModes() {
    return modes("INSERT");
  }

  /** The autocommit mode of each statement starting with {@code verb} the shards ran. */
  private List<Boolean> modes(String verb) {
    final List<Boolean> modes = new ArrayList<>();
    for (String shard : fixture.shards().names()) {
      fixture.shards().executions(shard).stream().filter(e -> e.sql().startsWith(verb))
          .forEach(e -> modes.add(e.autoCommit()));
    }
    return modes;
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

