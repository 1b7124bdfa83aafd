package io.shardset.execution;

import io.shardset.execution.RowReader.ColumnKind;
import io.shardset.testing.CountingShards;
import io.shardset.testing.TestPools;

import org.apache.calcite.linq4j.Enumerator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests {@link ParallelScan#concat}: results, laziness, parallelism, bounded memory, and that
 * close, failure and cancel leave no statement or connection open on any shard.
 */
class ParallelScanTest extends ShardScanTestBase {
  private static final int BIG_ROWS = 10_000;
  private static final RowReader ID_NAME =
      RowReader.of(List.of(ColumnKind.INTEGER, ColumnKind.STRING));
  private static final RowReader ID = RowReader.of(List.of(ColumnKind.INTEGER));

  /**
   * Five shards. {@code small(id, name)} holds 10, 0, 25, 1 and 7 rows (ids 0..9, none,
   * 200..224, 300, 400..406, name 'x' || id); {@code big(id)} holds 10,000 rows on each shard.
   */
  @BeforeAll static void createShards() {
    shards = CountingShards.h2(5);
    shards.executeOnAll("create table small(id int, name varchar(10))",
        "create table big(id int)");
    int[] sizes = {10, 0, 25, 1, 7};
    for (int i = 0; i < sizes.length; i++) {
      String shard = "s" + i;
      if (sizes[i] > 0) {
        shards.execute(shard, "insert into small select x, 'x' || x from system_range("
            + (i * 100) + ", " + (i * 100 + sizes[i] - 1) + ")");
      }
      shards.execute(shard, "insert into big select x from system_range(1, " + BIG_ROWS + ")");
    }
  }

  private static List<ShardRequest> requests(int shardCount, String sql) {
    return shards.endpoints().subList(0, shardCount).stream()
        .map(endpoint -> ShardRequest.of(endpoint, sql)).toList();
  }

  private static ScanEnumerator<ConcatCursor> scan(List<ShardRequest> requests,
      RowReader reader, ScanOptions options) {
    return ParallelScan.buffered(requests, reader, options);
  }

  private static List<Object[]> drain(Enumerator<Object[]> enumerator) {
    List<Object[]> rows = new ArrayList<>();
    try (enumerator) {
      while (enumerator.moveNext()) {
        rows.add(enumerator.current());
      }
    }
    return rows;
  }

  private static List<Integer> sortedIds(List<Object[]> rows) {
    return rows.stream().map(row -> (Integer) row[0]).sorted().toList();
  }

  private static List<Integer> range(int from, int count) {
    return IntStream.range(from, from + count).boxed().toList();
  }

  @ParameterizedTest(name = "{0} shards, parallelism {1}, batches of {2}, buffer {3}")
  @CsvSource({
      "1, 1, 1, 1",
      "1, 4, 1000, 16",
      "2, 1, 3, 1",
      "3, 2, 4, 2",
      "4, 4, 256, 16",
      "5, 1, 7, 2",
      "5, 3, 1, 1",
      "5, 16, 100, 4"})
  void returnsExactlyTheRowsOfAllShards(int shardCount, int parallelism, int batchSize,
      int bufferBatches) {
    ScanOptions options =
        TestPools.scanOptions(shardCount).withParallelism(parallelism)
            .withBatching(batchSize, bufferBatches);
    List<Object[]> rows =
        drain(scan(requests(shardCount, "select id, name from small"), ID_NAME, options));

    List<Integer> expected = new ArrayList<>();
    int[] sizes = {10, 0, 25, 1, 7};
    for (int i = 0; i < shardCount; i++) {
      expected.addAll(range(i * 100, sizes[i]));
    }
    assertEquals(expected, sortedIds(rows));
    for (Object[] row : rows) {
      assertEquals("x" + row[0], row[1]);
    }
    assertEquals(shardCount, shards.statementsExecuted());
  }

  @Test void returnsBigResultsCompletely() {
    List<Object[]> rows = drain(
        scan(requests(5, "select id from big"), ID, TestPools.scanOptions(5)));
    assertEquals(5 * BIG_ROWS, rows.size());
    assertEquals(BIG_ROWS * (BIG_ROWS + 1L) / 2 * 5,
        rows.stream().mapToLong(row -> (Integer) row[0]).sum());
  }

  @Test void zeroRequestsAreEmptyAndStartNoThread() {
    ThreadPoolExecutor threads = (ThreadPoolExecutor) TestPools.services().scanThreads();
    long tasksBefore = threads.getTaskCount();
    ScanEnumerator<ConcatCursor> scan = scan(List.of(), ID, TestPools.scanOptions(0));
    assertFalse(scan.moveNext());
    assertFalse(scan.moveNext());
    scan.close();
    assertEquals(tasksBefore, threads.getTaskCount());
  }

  @Test void sendsNothingBeforeTheFirstMoveNext() {
    ScanEnumerator<ConcatCursor> scan = scan(requests(3, "select id, name from small"), ID_NAME,
        TestPools.scanOptions(3));
    assertEquals(0, shards.statementsExecuted());
    assertTrue(scan.moveNext());
    scan.close();
    assertTrue(shards.statementsExecuted() >= 1);
  }

  @Test void closeBeforeTheFirstMoveNextSendsNothing() {
    ScanEnumerator<ConcatCursor> scan =
        scan(requests(3, "select id from big"), ID, TestPools.scanOptions(3));
    scan.close();
    assertFalse(scan.moveNext());
    assertEquals(0, scan.startedRequests());
    assertEquals(0, shards.statementsExecuted());
  }

  @Test void bindsParametersInOrderWithTheScanSettings() {
    List<Object> parameters = Arrays.asList(205, "x210");
    List<ShardRequest> requests = List.of(new ShardRequest(shards.endpoint("s2"),
        "select id, name from small where id >= ? and name <> ?", parameters));
    List<Object[]> rows = drain(scan(requests, ID_NAME,
        TestPools.scanOptions(1).withTimeoutMillis(1_500)));

    List<Integer> expected = new ArrayList<>(range(205, 20));
    expected.remove(Integer.valueOf(210));
    assertEquals(expected, sortedIds(rows));
    // H2 streams in autocommit mode, so no transaction is opened; 1.5 s left rounds up to 2 s.
    assertEquals(List.of(new CountingShards.Execution(
            "select id, name from small where id >= ? and name <> ?", parameters, 1000, 2,
            true)),
        shards.executions("s2"));
  }

  @Test void restoresAutocommitOfTheConnection() throws SQLException {
    drain(scan(requests(1, "select id from small"), ID, TestPools.scanOptions(1)));
    try (Connection connection = shards.pooledEndpoint("s0").connect()) {
      assertTrue(connection.getAutoCommit());
    }
  }

  @Test void buffersAtMostBufferBatchesForASlowConsumer() {
    int bufferBatches = 4;
    ScanEnumerator<ConcatCursor> scan = scan(requests(4, "select id from big"), ID,
        TestPools.scanOptions(4).withBatching(16, bufferBatches));
    int rows = 0;
    int maxSeen = 0;
    try (scan) {
      while (scan.moveNext()) {
        rows++;
        maxSeen = Math.max(maxSeen, scan.cursor().bufferedBatches());
      }
    }
    assertEquals(4 * BIG_ROWS, rows);
    assertTrue(maxSeen <= bufferBatches, "batches seen buffered: " + maxSeen);
    assertTrue(scan.cursor().peakBufferedBatches() <= bufferBatches,
        "peak buffered batches: " + scan.cursor().peakBufferedBatches());
    assertTrue(scan.cursor().peakBufferedBatches() >= 1);
  }

  @Test void runsAtMostParallelismStatementsAtOnce() throws InterruptedException {
    // One-row batches and a one-batch buffer: no shard can finish while the consumer waits,
    // so after one row both permitted statements are open and stay open.
    ScanEnumerator<ConcatCursor> scan = scan(requests(5, "select id from big"), ID,
        TestPools.scanOptions(5).withParallelism(2).withBatching(1, 1));
    int rows = 0;
    try (scan) {
      assertTrue(scan.moveNext());
      rows++;
      assertTrue(shards.awaitOpenStatements(2, Duration.ofSeconds(30)));
      while (scan.moveNext()) {
        rows++;
      }
    }
    assertEquals(5 * BIG_ROWS, rows);
    assertEquals(2, shards.peakOpenStatements());
    assertEquals(5, shards.statementsExecuted());
    assertEquals(5, scan.startedRequests());
  }

  @Test void closeAfterOneRowReleasesEveryShard() {
    ScanEnumerator<ConcatCursor> scan =
        scan(requests(4, "select id from big"), ID, TestPools.scanOptions(4));
    assertTrue(scan.moveNext());
    scan.close();
    // Checked right away: close() returns only after every producer let go of its shard.
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    for (String shard : shards.names()) {
      assertEquals(0, ShardPools.activeConnections(shards.pooledEndpoint(shard)), shard);
    }
    assertFalse(scan.moveNext());
    scan.close();
  }

  @Test void closeNeverStartsPendingRequests() {
    ScanEnumerator<ConcatCursor> scan = scan(requests(4, "select id from big"), ID,
        TestPools.scanOptions(4).withParallelism(1));
    assertTrue(scan.moveNext());
    scan.close();
    assertEquals(1, scan.startedRequests());
    assertEquals(1, shards.statementsExecuted());
  }

  @Test void closeFromAnotherThreadEndsTheScan() throws Exception {
    ScanEnumerator<ConcatCursor> scan = scan(requests(4, "select id from big"), ID,
        TestPools.scanOptions(4).withBatching(8, 1));
    assertTrue(scan.moveNext());
    CompletableFuture.runAsync(scan::close).get(60, TimeUnit.SECONDS);
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(scan.moveNext());
  }

  @Test void failureMidScanNamesTheShardAndClosesEverything() {
    shards.failAfterRows("s2", 100);
    ScanEnumerator<ConcatCursor> scan = scan(requests(4, "select id from big"), ID,
        TestPools.scanOptions(4).withBatching(10, 2));
    ShardException e = assertThrows(ShardException.class, () -> {
      while (scan.moveNext()) {
        scan.current();
      }
    });
    assertInjectedFailure(e, "s2", 100);
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(scan.moveNext());
  }

  @Test void outOfMemoryOnAProducerIsNotAFailureOfItsShard() {
    shards.outOfMemoryAfterRows("s3", 100);
    ScanEnumerator<ConcatCursor> scan = scan(requests(4, "select id from big"), ID,
        TestPools.scanOptions(4).withBatching(10, 2));
    OutOfMemoryError e = assertThrows(OutOfMemoryError.class, () -> drain(scan));
    assertEquals(CountingShards.injectedFailureMessage("s3", 100), e.getMessage());
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(scan.moveNext());
  }

  @Test void reportsOnlyTheFirstOfSeveralFailures() {
    shards.failAfterRows("s1", 0);
    shards.failAfterRows("s3", 0);
    ScanEnumerator<ConcatCursor> scan =
        scan(requests(4, "select id from big"), ID, TestPools.scanOptions(4));
    ShardException e = assertThrows(ShardException.class, () -> drain(scan));
    assertTrue(List.of("s1", "s3").contains(e.shardName()), e.getMessage());
    assertEquals("shard '" + e.shardName() + "' failed: "
        + CountingShards.injectedFailureMessage(e.shardName(), 0), e.getMessage());
    assertFalse(scan.moveNext());
  }

  @Test void downShardFailsTheScanNamingIt() {
    // Pool creation succeeds; the pool tries to connect for its connection timeout (10 s).
    ShardEndpoint down = TestPools.pools().endpoint(new ShardConnectionSettings("down",
        "jdbc:h2:mem:shardset_missing;IFEXISTS=TRUE", "sa", "", null));
    List<ShardRequest> requests = new ArrayList<>(requests(2, "select id from big"));
    requests.add(ShardRequest.of(down, "select id from big"));
    ScanEnumerator<ConcatCursor> scan = scan(requests, ID, TestPools.scanOptions(3));
    ShardException e = assertThrows(ShardException.class, () -> drain(scan));
    assertEquals("down", e.shardName());
    String expected = "shard 'down' failed: shardset-down - Connection is not available,"
        + " request timed out after \\d+ms \\(total=0, active=0, idle=0, waiting=0\\);"
        + " last connection failure: Database \"mem:shardset_missing\" not found, and"
        + " IFEXISTS=true, so we cant auto-create it \\[90146-232\\]";
    assertTrue(e.getMessage().matches(expected), e.getMessage());
  }

  @Test void redactsTheShardPasswordFromErrors() {
    ShardEndpoint leaky = new ShardEndpoint() {
      @Override public String name() {
        return "secret";
      }

      @Override public Connection connect() throws SQLException {
        throw new SQLException("login with password hunter2 refused",
            new SQLException("hunter2 is wrong"));
      }

      @Override public String redact(String message) {
        return message.replace("hunter2", "****");
      }
    };
    ScanEnumerator<ConcatCursor> scan = scan(List.of(ShardRequest.of(leaky, "select 1")), ID,
        TestPools.scanOptions(1));
    ShardException e = assertThrows(ShardException.class, scan::moveNext);
    assertEquals("shard 'secret' failed: login with password **** refused", e.getMessage());
    assertEquals("login with password **** refused", e.getCause().getMessage());
    assertEquals("**** is wrong", e.getCause().getCause().getMessage());
  }

  @Test void cancelFlagStopsTheScan() {
    AtomicBoolean cancel = new AtomicBoolean();
    ScanEnumerator<ConcatCursor> scan = scan(requests(4, "select id from big"), ID,
        TestPools.scanOptions(4).withCancelFlag(cancel));
    assertTrue(scan.moveNext());
    cancel.set(true);
    CancellationException e = assertThrows(CancellationException.class, scan::moveNext);
    assertEquals("Statement canceled", e.getMessage());
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(scan.moveNext());
  }

  @Test void currentBeforeMoveNextAndResetAreRejected() {
    ScanEnumerator<ConcatCursor> scan =
        scan(requests(1, "select id from small"), ID, TestPools.scanOptions(1));
    try (scan) {
      assertThrows(NoSuchElementException.class, scan::current);
      assertThrows(UnsupportedOperationException.class, scan::reset);
      assertTrue(scan.moveNext());
      assertArrayEquals(new Object[] {(Integer) scan.current()[0]}, scan.current());
    }
  }
}
