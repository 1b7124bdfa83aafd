package io.shardset.execution;

import io.shardset.execution.RowReader.ColumnKind;
import io.shardset.testing.TestPools;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statements waiting for a connection of a busy shard pool: they fail saying the shard is busy
 * after the acquire timeout, and stop waiting as soon as their scan closes.
 */
class PoolQueueTest {
  private static final String URL = "jdbc:h2:mem:poolqueue;DB_CLOSE_DELAY=-1";
  private static final RowReader ID = RowReader.of(List.of(ColumnKind.INTEGER));
  private static Connection keepAlive;

  @BeforeAll static void createTable() throws SQLException {
    keepAlive = DriverManager.getConnection(URL, "sa", "");
    try (Statement s = keepAlive.createStatement()) {
      s.execute("CREATE TABLE t (id INT)");
      s.execute("INSERT INTO t SELECT x FROM SYSTEM_RANGE(1, 10)");
    }
  }

  private static ShardEndpoint endpoint(String name, int poolSize, long acquireTimeoutMillis) {
    return TestPools.pools().endpoint(new ShardConnectionSettings(name, URL, "sa", "", null,
        poolSize, 10_000, 0, 0, true, acquireTimeoutMillis));
  }

  private static List<ShardRequest> requests(ShardEndpoint... endpoints) {
    return Arrays.stream(endpoints)
        .map(e -> new ShardRequest(e, "select id from t", List.of())).toList();
  }

  @Test void aPoolBusyPastTheAcquireTimeoutSaysSoAndNamesTheShard() throws Exception {
    ShardEndpoint busy = endpoint("busy", 1, 300);
    try (Connection held = busy.connect()) {
      Enumerator<@Nullable Object[]> scan =
          ParallelScan.concat(requests(busy), ID, TestPools.scanOptions(1));
      ShardException e = assertThrows(ShardException.class, scan::moveNext);
      assertEquals("shard 'busy' is busy: all 1 connections in use for 300 ms (0 more"
          + " statements waiting); raise the shard's poolSize or acquireTimeout",
          e.getMessage());
      assertTrue(e.busy());
    }
    assertEquals(0, ShardPools.activeConnections(busy));
  }

  @Test void closingAScanStopsItsRequestsWaitingForABusyPool() throws Exception {
    ShardEndpoint free = endpoint("free", 2, 60_000);
    ShardEndpoint busy = endpoint("crowded", 1, 60_000);
    try (Connection held = busy.connect()) {
      Enumerator<@Nullable Object[]> scan =
          ParallelScan.concat(requests(free, busy), ID, TestPools.scanOptions(2));
      assertTrue(scan.moveNext());
      // The request to the crowded shard waits in its pool's queue for up to 60 s; closing
      // the scan must not wait for it.
      CompletableFuture.runAsync(scan::close).get(10, TimeUnit.SECONDS);
      assertEquals(0, ShardPools.activeConnections(free));
    }
    assertEquals(0, ShardPools.activeConnections(busy));
  }
}
