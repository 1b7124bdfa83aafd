package io.shardset.calcite;

import io.shardset.execution.ShardException;
import io.shardset.execution.ShardPools;
import io.shardset.testing.CountingShards;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shard statements and connections are released when a consumer stops early, and a shard
 * failing in the middle of a scan fails the query with an error that names it.
 */
class ExecutionResourcesTest extends SalesDataTestBase {
  @AfterEach void clearFailures() {
    fixture.shards().clearFailures();
  }

  @Test void earlyCloseAfterLimitReleasesEveryShard() throws SQLException {
    fixture.shards().resetCounters();
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT * FROM ORDERS LIMIT 1")) {
      assertTrue(rs.next());
    }
    // The scan started on the shards, and left nothing open on any.
    assertFalse(fixture.shardsReached().isEmpty());
    assertEquals(0, fixture.shards().openStatements());
    assertEquals(0, checkedOutConnections());
  }

  @Test void closingAResultSetMidStreamReleasesEveryShard() throws SQLException {
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT * FROM ORDERS")) {
      for (int i = 0; i < 10; i++) {
        assertTrue(rs.next());
      }
    }
    assertEquals(0, fixture.shards().openStatements());
    assertEquals(0, checkedOutConnections());
  }

  @Test void shardFailingMidScanIsNamed() throws SQLException {
    fixture.shards().failAfterRows("s2", 10);
    // The error surfaces from executeQuery (wrapped in an SQLException) when the first rows
    // are fetched there, or from next() (unchecked, as Calcite's JDBC adapter does) later.
    final Exception thrown = assertThrows(Exception.class, () -> {
      try (Statement s = connection.createStatement();
           ResultSet rs = s.executeQuery("SELECT * FROM ORDERS")) {
        while (rs.next()) {
          rs.getObject(1);
        }
      }
    });
    final ShardException e = shardException(thrown);
    final String expected = "shard 's2' failed: "
        + CountingShards.injectedFailureMessage("s2", 10);
    assertEquals(expected, e.getMessage());
    assertEquals("s2", e.shardName());
    assertEquals(0, fixture.shards().openStatements());
    assertEquals(0, checkedOutConnections());
  }

  @Test void queryPrunedAwayFromAFailingShardWorks() throws SQLException {
    fixture.shards().failAfterRows("s2", 0);
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ACCOUNTS WHERE REGION = 'EU'")) {
      assertTrue(rs.next());
      assertTrue(rs.getLong(1) > 0);
    }
  }

  @Test void parallelismSettingBoundsConcurrentShardStatements() throws SQLException {
    final String model = fixture.model("\"parallelism\": 1,\n" + SalesData.TABLES);
    long rows = 0;
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement()) {
      fixture.shards().resetCounters();
      try (ResultSet rs = s.executeQuery("SELECT * FROM ORDERS")) {
        while (rs.next()) {
          rows++;
        }
      }
    }
    assertEquals(2000, rows);
    assertEquals(4, fixture.shardsReached().size());
    assertEquals(1, fixture.shards().peakOpenStatements());
  }

  /** Connections ShardSet's own shard pools have handed out and not yet taken back. */
  private int checkedOutConnections() throws SQLException {
    final ShardTable orders = ShardFixture.schema(connection).table("ORDERS");
    int active = 0;
    for (int i = 0; i < orders.shardCount(); i++) {
      active += ShardPools.activeConnections(orders.site(i).endpoint());
    }
    return active;
  }

  private static ShardException shardException(Throwable thrown) {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof ShardException e) {
        return e;
      }
    }
    throw new AssertionError("no ShardException in " + messages(thrown), thrown);
  }

  /** The messages of an exception and its causes, one per line. */
  static String messages(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append('\n');
    }
    return b.toString();
  }
}
