package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.prepare.PlanCache;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * One plan cache per process: a connection plans nothing another connection of the process
 * planned on the same tables with the same plan settings, and a plan made on one connection
 * runs as the connection that runs it (its session, its transaction, its guardrails).
 */
class SharedPlansTest extends SalesDataTestBase {
  private static final String COUNT = "SELECT COUNT(*) FROM CUSTOMERS";

  @Override Connection open(String model) throws SQLException {
    return Connector.SHARDSET.open(model);
  }

  @BeforeEach void dropPlans() throws SQLException {
    cache().invalidate(connection);
  }

  private static PlanCache cache() throws SQLException {
    return ((ShardSetDriver) DriverManager.getDriver(ShardSetDriver.CONNECT_STRING_PREFIX))
        .planCache();
  }

  /** Another connection on the model, with {@code settings} (name, value, ...) added. */
  private Connection other(String... settings) throws SQLException {
    final Properties info = Connector.info(SalesData.model(fixture));
    for (int i = 0; i < settings.length; i += 2) {
      info.setProperty(settings[i], settings[i + 1]);
    }
    return DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX, info);
  }

  @Test void aSecondConnectionPlansNothingItHasSeen() throws SQLException {
    final String grouped = "SELECT REGION, COUNT(*) FROM CUSTOMERS GROUP BY REGION";
    final String joined = "SELECT O.ORDER_ID, C.NAME FROM ORDERS O JOIN CUSTOMERS C"
        + " ON O.CUSTOMER_ID = C.CUSTOMER_ID WHERE C.CUSTOMER_ID = ";
    final String point = "SELECT NAME FROM CUSTOMERS WHERE CUSTOMER_ID = ?";
    assertEquals(sorted(fixture.oracleRows(grouped)), sorted(rows(grouped)));
    assertEquals(sorted(fixture.oracleRows(joined + 7)), sorted(rows(joined + 7)));
    assertEquals(oracleName(42), pointRows(connection, point, 42));
    final long plans = cache().plans();
    final long hits = cache().hits();
    try (Connection other = other()) {
      assertEquals(sorted(fixture.oracleRows(grouped)), sorted(ShardFixture.rows(other, grouped)));
      assertEquals(sorted(fixture.oracleRows(joined + 9)),
          sorted(ShardFixture.rows(other, joined + 9)));
      assertEquals(oracleName(43), pointRows(other, point, 43));
      assertEquals(explained(connection, joined + 9), explained(other, joined + 9));
    }
    assertEquals(0, cache().plans() - plans);
    // Three statements, and the EXPLAIN of one on each connection.
    assertEquals(5, cache().hits() - hits);
  }

  @Test void settingsThatCanChangeAPlanTakeTheirOwn() throws SQLException {
    final String sql = "SELECT REGION, COUNT(*) FROM CUSTOMERS WHERE CUSTOMER_ID > 10"
        + " GROUP BY REGION";
    final List<String> expected = sorted(fixture.oracleRows(sql));
    assertEquals(expected, sorted(rows(sql)));
    final long plans = cache().plans();
    try (Connection strict = other("conformance", "DEFAULT");
         Connection utc = other("timeZone", "UTC");
         Connection same = other("conformance", ShardSetDriver.DEFAULT_CONFORMANCE,
             "sortMemory", "1MB", "slowQueryMillis", "5")) {
      assertEquals(expected, sorted(ShardFixture.rows(strict, sql)));
      assertEquals(expected, sorted(ShardFixture.rows(utc, sql)));
      // The default conformance named, and settings read when a statement runs: shared.
      assertEquals(expected, sorted(ShardFixture.rows(same, sql)));
      assertEquals(expected, sorted(ShardFixture.rows(strict, sql)));
    }
    assertEquals(2, cache().plans() - plans);
  }

  /** A plan made on one connection, run by another whose scatter setting denies what the plan
   * reads: refused there, as if that connection had planned it. */
  @Test void aSharedPlanKeepsEachConnectionsGuardrails() throws SQLException {
    assertEquals(fixture.oracleRows(COUNT), rows(COUNT));
    final long plans = cache().plans();
    try (Connection denying = other("scatter", "deny")) {
      final SQLException e = assertThrows(SQLException.class,
          () -> denying.prepareStatement(COUNT));
      assertEquals("54000", e.getSQLState());
      assertEquals("scatter denied: the statement reads S.CUSTOMERS on all 4 of its shards, and"
          + " the scatter setting of the connection is deny; add a condition on its shard key"
          + " (CUSTOMER_ID), or allow it with the hint /*+ SCATTER */", e.getMessage());
    }
    assertEquals(0, cache().plans() - plans);
    assertEquals(fixture.oracleRows(COUNT), rows(COUNT));
  }

  /** A plan runs in the session of the connection that runs it: one connection's uncommitted
   * row is seen through the shared plan by that connection alone. */
  @Test void aSharedPlanRunsInTheSessionThatRunsIt() throws SQLException {
    final long before = count(connection);
    final long plans = cache().plans();
    try (Connection writer = other(); Connection reader = other()) {
      writer.setAutoCommit(false);
      try (Statement s = writer.createStatement()) {
        assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS (CUSTOMER_ID, NAME, REGION,"
            + " SIGNUP) VALUES (990001, 'Uncommitted', 'EU', DATE '2026-01-01')"));
      }
      assertEquals(before + 1, count(writer));
      assertEquals(before, count(reader));
      writer.rollback();
      assertEquals(before, count(writer));
    }
    // The plan outlives the connections that ran it.
    assertEquals(before, count(connection));
    assertEquals(0, cache().plans() - plans);
  }

  private static long count(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(COUNT)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private List<String> oracleName(long id) throws SQLException {
    return fixture.oracleRows("SELECT NAME FROM CUSTOMERS WHERE CUSTOMER_ID = " + id);
  }

  private static List<String> pointRows(Connection c, String sql, long id) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setLong(1, id);
      try (ResultSet rs = p.executeQuery()) {
        return ShardFixture.rows(rs);
      }
    }
  }

  private static List<String> explained(Connection c, String sql) throws SQLException {
    return ShardFixture.rows(c, "EXPLAIN PLAN FOR " + sql);
  }
}
