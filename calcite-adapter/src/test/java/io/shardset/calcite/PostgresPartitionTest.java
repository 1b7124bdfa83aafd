package io.shardset.calcite;

import io.shardset.execution.ShardPools;
import io.shardset.testing.DroppingProxy;
import io.shardset.testing.PostgresItems;
import io.shardset.testing.ShardFixture;
import io.shardset.testing.ThreadStacks;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import static io.shardset.calcite.ExecutionResourcesTest.messages;
import static io.shardset.testing.PostgresItems.awaitValue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A PostgreSQL shard that stops answering in the middle of a scan (its packets dropped, its
 * sockets left open, as in a network partition): the query fails within its timeout naming the
 * shard, a cancel returns at once, nothing stays checked out, and the next query works.
 */
class PostgresPartitionTest {
  private static final int ROWS_PER_SHARD = 30_000;
  private static PostgresItems items;
  private DroppingProxy proxy;
  private String model;
  private final ExecutorService executor = Executors.newSingleThreadExecutor();

  @BeforeAll static void createShards() throws SQLException {
    items = PostgresItems.create("partition", ROWS_PER_SHARD);
  }

  @AfterAll static void dropShards() throws SQLException {
    items.drop();
  }

  @BeforeEach void startProxy() throws Exception {
    proxy = DroppingProxy.start(5432);
    model = items.model("\"connectTimeout\": 1000", proxy.port(), "");
  }

  @AfterEach void stopProxy() throws Exception {
    executor.shutdownNow();
    proxy.close();
  }

  @Test void queryTimeoutEndsAScanOfAShardThatStoppedAnswering() throws Exception {
    assertTimesOut("SELECT * FROM ITEMS", 4);
  }

  @Test void directScanOfAShardThatStoppedAnsweringTimesOut() throws Exception {
    // Pruned to s3 alone, the scan reads on the caller's thread.
    assertTimesOut("SELECT * FROM ITEMS WHERE ID > 3000000", 3);
  }

  /**
   * Runs a query with a timeout, dropping s3's packets once its first row arrived; expects it
   * to fail naming s3 and its timeout within the timeout and 2 s.
   */
  private void assertTimesOut(String sql, int timeoutSeconds) throws Exception {
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement()) {
      warmUp(s, sql);
      s.setQueryTimeout(timeoutSeconds);
      final long start = System.nanoTime();
      final Throwable thrown = readAll(s, sql, new AtomicLong()).get(30, TimeUnit.SECONDS);
      final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      System.out.printf(Locale.ROOT, "partition: %s with a %d s timeout failed after %d ms%n", sql,
          timeoutSeconds, millis);
      assertNotNull(thrown, "the query did not fail");
      assertTrue(messages(thrown).contains("shard 's3' failed: query timeout of "),
          messages(thrown));
      System.out.println("partition: " + messages(thrown).lines()
          .filter(line -> line.startsWith("shard 's3'")).findFirst().orElse(""));
      assertTrue(millis < timeoutSeconds * 1000L + 2_000, "failed after " + millis + " ms");
      assertReleasedAndWorksAgain(c);
    }
  }

  @Test void cancelReturnsAtOnceWhenAShardStoppedAnswering() throws Exception {
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement()) {
      warmUp(s, "SELECT * FROM ITEMS");
      final AtomicLong rows = new AtomicLong();
      final CompletableFuture<Throwable> query = readAll(s, "SELECT * FROM ITEMS", rows);
      // The other shards' rows all arrive; then the reader waits for the silent shard.
      awaitValue(1, () -> rows.get() >= 3L * ROWS_PER_SHARD || query.isDone() ? 1 : 0);
      assertFalse(query.isDone(), () -> "the query ended before the cancel: "
          + messages(query.join()));
      final long start = System.nanoTime();
      s.cancel();
      final long cancelMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      final Throwable thrown = awaitFailure(query);
      final long failMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      System.out.printf(Locale.ROOT, "partition: cancel() returned after %d ms, the query failed"
          + " after %d ms%n", cancelMillis, failMillis);
      assertTrue(cancelMillis < 2_000, "cancel took " + cancelMillis + " ms");
      assertNotNull(thrown, "the query did not fail");
      assertTrue(messages(thrown).contains("Statement canceled"), messages(thrown));
      assertTrue(failMillis < 3_000, "the query failed after " + failMillis + " ms");
      assertReleasedAndWorksAgain(c);
    }
  }

  /** What the query threw, or a failure that says where each thread stands after 30 s. */
  private static Throwable awaitFailure(CompletableFuture<Throwable> query) throws Exception {
    try {
      return query.get(30, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the query still runs 30 s after the cancel; threads: "
          + ThreadStacks.ofShardSet(), e);
    }
  }

  /**
   * Runs a query on another thread that reads until the first row of s3, switches the proxy to
   * drop, and reads on; returns what it threw, or null.
   */
  private CompletableFuture<Throwable> readAll(Statement s, String sql, AtomicLong rows) {
    return CompletableFuture.supplyAsync(() -> {
      try (ResultSet rs = s.executeQuery(sql)) {
        boolean dropped = false;
        while (rs.next()) {
          rows.incrementAndGet();
          // Once s3 streams (it has rows left on the server), its packets are lost.
          if (!dropped && rs.getLong(1) > PostgresItems.S3_START) {
            proxy.drop(true);
            dropped = true;
          }
        }
        return null;
      } catch (Throwable t) {
        return t;
      }
    }, executor);
  }

  /** Runs the query once while every shard answers, so that the measured run is warm. */
  private static void warmUp(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  /** Nothing stays checked out or open on a shard; queries work once the proxy forwards. */
  private void assertReleasedAndWorksAgain(Connection c) throws SQLException {
    awaitValue(0, () -> checkedOutConnections(c));
    awaitValue(0, items::busySessions);
    // The shards that answer do so meanwhile.
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ITEMS WHERE ID < 3000000")) {
      assertTrue(rs.next());
      assertEquals(3L * ROWS_PER_SHARD, rs.getLong(1));
    }
    proxy.drop(false);
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ITEMS")) {
      assertTrue(rs.next());
      assertEquals(4L * ROWS_PER_SHARD, rs.getLong(1));
    }
    assertEquals(0, checkedOutConnections(c));
  }

  private static int checkedOutConnections(Connection c) {
    try {
      final ShardTable items = ShardFixture.schema(c).table("ITEMS");
      int active = 0;
      for (int i = 0; i < items.shardCount(); i++) {
        active += ShardPools.activeConnections(items.site(i).endpoint());
      }
      return active;
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }
}
