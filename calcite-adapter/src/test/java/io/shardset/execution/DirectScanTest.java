package io.shardset.execution;

import io.shardset.execution.RowReader.ColumnKind;
import io.shardset.testing.CountingShards;
import io.shardset.testing.TestPools;

import org.apache.calcite.linq4j.Enumerator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests {@link ParallelScan#concat} over one request, which runs on the consumer's thread:
 * the same guarantees as the parallel scans (laziness, settings, failures naming the shard,
 * cancel, close from any thread, nothing left open) without a producer thread.
 */
class DirectScanTest extends ShardScanTestBase {
  private static final int BIG_ROWS = 10_000;
  private static final RowReader ID = RowReader.of(List.of(ColumnKind.INTEGER));
  private static final RowReader COUNT = RowReader.of(List.of(ColumnKind.BIGINT));
  /**
   * A statement that runs for minutes on H2 unless canceled: the condition keeps H2 from
   * answering the count of a cross join from the table sizes.
   */
  private static final String SLOW =
      "select count(*) from big a, big b, big c where a.id + b.id + c.id > 0";

  /** Three shards; {@code big(id)} holds ids 1..10,000 on each. */
  @BeforeAll static void createShards() {
    shards = CountingShards.h2(3);
    shards.executeOnAll("create table big(id int)",
        "insert into big select x from system_range(1, " + BIG_ROWS + ")");
  }

  private static Enumerator<Object[]> scan(ShardRequest request, RowReader reader,
      ScanOptions options) {
    Enumerator<Object[]> scan = ParallelScan.concat(List.of(request), reader, options);
    assertInstanceOf(DirectCursor.class, assertInstanceOf(ScanEnumerator.class, scan).cursor());
    return scan;
  }

  private static Enumerator<Object[]> scan(String shard, String sql) {
    return scan(ShardRequest.of(shards.endpoint(shard), sql), ID, TestPools.scanOptions(1));
  }

  private static List<Integer> ids(Enumerator<Object[]> scan) {
    List<Integer> ids = new ArrayList<>();
    try (scan) {
      while (scan.moveNext()) {
        ids.add((Integer) scan.current()[0]);
      }
    }
    return ids;
  }

  /** Waits until the consumer has sent its statement to the shard (it is then running). */
  private static void awaitExecuting() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (shards.statementsExecuted() == 0) {
      assertTrue(System.nanoTime() - deadline < 0, "the statement never started");
      Thread.onSpinWait();
    }
  }

  @Test void returnsEveryRowOfTheShardOnTheCallersThread() {
    List<String> threads = new ArrayList<>();
    ShardEndpoint s1 = shards.endpoint("s1");
    ShardEndpoint recording = new ShardEndpoint() {
      @Override public String name() {
        return s1.name();
      }

      @Override public Connection connect() throws SQLException {
        threads.add(Thread.currentThread().getName());
        return s1.connect();
      }

      @Override public String redact(String message) {
        return s1.redact(message);
      }
    };
    List<Integer> ids = ids(scan(ShardRequest.of(recording,
        "select id from big where id <= 3000 order by id"), ID, TestPools.scanOptions(1)));
    assertEquals(3000, ids.size());
    assertEquals(1, ids.get(0));
    assertEquals(3000, ids.get(2999));
    assertEquals(List.of(Thread.currentThread().getName()), threads);
    assertEquals(3000, shards.rowsRead("s1"));
    assertEquals(0, shards.statementsExecuted("s0") + shards.statementsExecuted("s2"));
  }

  @Test void sendsNothingBeforeTheFirstMoveNextAndNothingAfterAnEarlyClose() {
    Enumerator<Object[]> scan = scan("s0", "select id from big");
    assertEquals(0, shards.statementsExecuted());
    scan.close();
    assertFalse(scan.moveNext());
    assertEquals(0, shards.statementsExecuted());
  }

  @Test void bindsParametersWithTheScanSettingsAndRestoresAutocommit() throws SQLException {
    List<Object> parameters = Arrays.asList(9_995, 9_998);
    ShardRequest request = new ShardRequest(shards.endpoint("s2"),
        "select id from big where id >= ? and id <> ?", parameters);
    List<Integer> ids = ids(scan(request, ID, TestPools.scanOptions(1).withTimeoutMillis(1_500)));

    assertEquals(List.of(9_995, 9_996, 9_997, 9_999, 10_000), ids.stream().sorted().toList());
    // H2 streams in autocommit mode, so no transaction is opened; 1.5 s left rounds up to 2 s.
    assertEquals(List.of(new CountingShards.Execution(
            "select id from big where id >= ? and id <> ?", parameters, 1000, 2, true)),
        shards.executions("s2"));
    try (Connection connection = shards.pooledEndpoint("s2").connect()) {
      assertTrue(connection.getAutoCommit());
    }
  }

  /**
   * A scan that starts once its query's time is up sends nothing, and its error names the
   * timeout the statement set, in seconds, not the millisecond that was left of it.
   */
  @Test void aScanStartedAfterTheTimeoutNamesTheTimeoutSet() {
    Enumerator<Object[]> scan = scan(ShardRequest.of(shards.endpoint("s0"), "select id from big"),
        ID, TestPools.scanOptions(1).withTimeout(QueryTimeout.of(1_000, 1_200)));
    // The 1 ms left runs out.
    long created = System.nanoTime();
    while (System.nanoTime() - created < TimeUnit.MILLISECONDS.toNanos(2)) {
      Thread.onSpinWait();
    }
    ShardException e = assertThrows(ShardException.class, scan::moveNext);
    assertEquals("shard 's0' failed: query timeout of 1 s elapsed before the statement started",
        e.getMessage());
    assertEquals(QueryTimeoutException.SQL_STATE,
        ((QueryTimeoutException) e.getCause()).getSQLState());
    assertEquals(0, shards.statementsExecuted());
    scan.close();
  }

  @Test void closeAfterOneRowReleasesTheShard() {
    Enumerator<Object[]> scan = scan("s0", "select id from big");
    assertTrue(scan.moveNext());
    scan.close();
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertEquals(0, ShardPools.activeConnections(shards.pooledEndpoint("s0")));
    assertFalse(scan.moveNext());
    assertThrows(NoSuchElementException.class, scan::current);
  }

  @Test void failureMidScanNamesTheShardAndReleasesIt() {
    shards.failAfterRows("s1", 100);
    Enumerator<Object[]> scan = scan("s1", "select id from big");
    ShardException e = assertThrows(ShardException.class, () -> ids(scan));
    assertInjectedFailure(e, "s1", 100);
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(scan.moveNext());
  }

  @Test void readsAFallbackWhenTheShardCannotBeReachedAndNamesAllWhenNoneCan() {
    ShardEndpoint down = TestPools.pools().endpoint(new ShardConnectionSettings("down",
        "jdbc:h2:mem:shardset_direct_missing;IFEXISTS=TRUE", "sa", "", null, 1, 500, 0));
    String sql = "select id from big where id <= 5";
    ShardRequest request = ShardRequest.of(down, sql)
        .withFallbacks(List.of(ShardRequest.of(shards.endpoint("s2"), sql)));
    assertEquals(List.of(1, 2, 3, 4, 5), ids(scan(request, ID, TestPools.scanOptions(1))));

    ShardRequest nowhere = ShardRequest.of(down, sql)
        .withFallbacks(List.of(ShardRequest.of(down, sql)));
    ShardException e = assertThrows(ShardException.class,
        () -> ids(scan(nowhere, ID, TestPools.scanOptions(1))));
    assertEquals("down", e.shardName());
    assertEquals(1, e.getSuppressed().length);
  }

  @Test void cancelFlagCancelsTheRunningStatement() throws Exception {
    AtomicBoolean cancel = new AtomicBoolean();
    Enumerator<Object[]> scan = scan(ShardRequest.of(shards.endpoint("s0"), SLOW), COUNT,
        TestPools.scanOptions(1).withCancelFlag(cancel));
    CompletableFuture<Boolean> consumer = CompletableFuture.supplyAsync(scan::moveNext);
    awaitExecuting();
    cancel.set(true);
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> consumer.get(60, TimeUnit.SECONDS));
    assertInstanceOf(CancellationException.class, e.getCause());
    assertEquals("Statement canceled", e.getCause().getMessage());
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    scan.close();
  }

  @Test void closeFromAnotherThreadStopsARunningStatement() throws Exception {
    Enumerator<Object[]> scan = scan(ShardRequest.of(shards.endpoint("s0"), SLOW), COUNT,
        TestPools.scanOptions(1));
    CompletableFuture<Boolean> consumer = CompletableFuture.supplyAsync(scan::moveNext);
    awaitExecuting();
    CompletableFuture.runAsync(scan::close).get(60, TimeUnit.SECONDS);
    // close() returned, so the shard is released whatever the consumer makes of it.
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> consumer.get(60, TimeUnit.SECONDS));
    ShardException failure = assertInstanceOf(ShardException.class, e.getCause());
    assertEquals("s0", failure.shardName());
    assertFalse(scan.moveNext());
  }
}
