package io.shardset.execution;

import io.shardset.execution.RowReader.ColumnKind;
import io.shardset.testing.CountingShards;
import io.shardset.testing.TestPools;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests {@link ParallelScan#merge}: the merged stream equals the same query on one unsharded
 * database, ties come in shard order, memory stays bounded, and close, failure and cancel leave
 * no statement or connection open on any shard.
 */
class ParallelMergeTest extends ShardScanTestBase {
  private static final List<String> SHARDS = List.of("s0", "s1", "s2", "s3");
  /** The unsharded database that holds the rows of all shards. */
  private static final String ALL = "all";
  private static final int BIG_ROWS = 20_000;
  private static final RowReader ID_NAME_N = RowReader.of(
      List.of(ColumnKind.INTEGER, ColumnKind.STRING, ColumnKind.INTEGER));
  private static final RowReader ID = RowReader.of(List.of(ColumnKind.INTEGER));
  private static final RowComparator BY_ID =
      RowComparator.of(List.of(new SortKey(0, false, false)));
  private static final List<String> NAMES = List.of("apple", "Apple", "APPLE", "banana",
      "Äpfel", "äpfel", "éclair", "Éclair", "zebra", "Zoo", "straße", "strasse", "", "日本",
      "a b", "a", "\uD83D\uDE00", "Ａ");

  /**
   * Four shards and {@code all}. {@code t(id, name, n)} has ids 1..1200 spread at random over
   * the shards, names with ties, case and non-ASCII characters, and a nullable {@code n} with
   * many ties; {@code all} holds every row. {@code uneven(id, name, n)} holds no row on s0, one
   * on s1, 50 on s2 and 5 on s3; {@code empty} holds none; {@code ties(k, shard)} holds
   * k = 1, 1, 2, 2, 3 on every shard; {@code big(id)} holds ids 1..20,000 on every shard.
   */
  @BeforeAll static void createShards() {
    List<String> names = new ArrayList<>(SHARDS);
    names.add(ALL);
    shards = CountingShards.h2(names);
    shards.executeOnAll("create table t(id int, name varchar(20), n int)",
        "create table uneven(id int, name varchar(20), n int)",
        "create table empty(id int, name varchar(20), n int)",
        "create table ties(k int, shard varchar(5))",
        "create table big(id int)");
    Random random = new Random(42);
    List<List<String>> rows = new ArrayList<>();
    for (int i = 0; i < SHARDS.size(); i++) {
      rows.add(new ArrayList<>());
    }
    for (int id = 1; id <= 1200; id++) {
      String n = random.nextInt(6) == 0 ? "null" : String.valueOf(random.nextInt(20));
      String row = "(" + id + ", '" + NAMES.get(random.nextInt(NAMES.size())) + "', " + n + ")";
      rows.get(random.nextInt(SHARDS.size())).add(row);
    }
    for (int i = 0; i < SHARDS.size(); i++) {
      String values = String.join(", ", rows.get(i));
      shards.execute(SHARDS.get(i), "insert into t values " + values);
      shards.execute(ALL, "insert into t values " + values);
    }
    shards.execute("s1", "insert into uneven values (7, 'x', 1)");
    shards.execute("s2", "insert into uneven select x * 2, 'y', x from system_range(1, 50)");
    shards.execute("s3", "insert into uneven select x * 3, 'z', null from system_range(1, 5)");
    for (String shard : SHARDS) {
      shards.execute(shard,
          "insert into ties values (1, '" + shard + "'), (2, '" + shard + "'), (1, '" + shard
              + "'), (3, '" + shard + "'), (2, '" + shard + "')",
          "insert into big select x from system_range(1, " + BIG_ROWS + ")");
    }
  }

  private static List<ShardRequest> requests(String sql) {
    return SHARDS.stream().map(shard -> ShardRequest.of(shards.endpoint(shard), sql)).toList();
  }

  private static ScanEnumerator<MergeCursor> merge(List<ShardRequest> requests,
      RowReader reader, ScanOptions options, Comparator<@Nullable Object[]> comparator) {
    return ParallelScan.sorted(requests, reader, options, comparator);
  }

  private static List<List<@Nullable Object>> drain(Enumerator<@Nullable Object[]> enumerator) {
    List<List<@Nullable Object>> rows = new ArrayList<>();
    try (enumerator) {
      while (enumerator.moveNext()) {
        rows.add(Arrays.asList(enumerator.current()));
      }
    }
    return rows;
  }

  /** Runs a query on the unsharded database, in the order it returns. */
  private static List<List<@Nullable Object>> unsharded(String sql, RowReader reader) {
    return drain(ParallelScan.concat(List.of(ShardRequest.of(shards.endpoint(ALL), sql)),
        reader, TestPools.scanOptions(1)));
  }

  /** Parses sort keys written as {@code field:asc|desc:first|last} separated by spaces. */
  private static RowComparator comparator(String keys) {
    List<SortKey> sortKeys = new ArrayList<>();
    for (String key : keys.split(" ")) {
      String[] parts = key.split(":");
      sortKeys.add(new SortKey(Integer.parseInt(parts[0]), parts[1].equals("desc"),
          parts[2].equals("first")));
    }
    return RowComparator.of(sortKeys);
  }

  @ParameterizedTest(name = "order by {0}")
  @CsvSource(delimiter = '|', value = {
      "id                           | 0:asc:last",
      "id desc                      | 0:desc:last",
      "name, id desc                | 1:asc:last 0:desc:last",
      "name desc, id                | 1:desc:last 0:asc:last",
      "n asc nulls first, id        | 2:asc:first 0:asc:last",
      "n asc nulls last, id         | 2:asc:last 0:asc:last",
      "n desc nulls first, id       | 2:desc:first 0:asc:last",
      "n desc nulls last, id desc   | 2:desc:last 0:desc:last",
      "n desc nulls last, name, id  | 2:desc:last 1:asc:last 0:asc:last"})
  void mergeEqualsTheSortOfAllRows(String orderBy, String keys) {
    String sql = "select id, name, n from t order by " + orderBy;
    List<List<@Nullable Object>> merged = drain(merge(requests(sql), ID_NAME_N,
        TestPools.scanOptions(4).withBatching(7, 2), comparator(keys)));

    List<List<@Nullable Object>> expected = unsharded(sql, ID_NAME_N);
    assertEquals(1200, expected.size());
    assertEquals(expected, merged);
  }

  @Test void mergedTopRowsOfEveryShardAreTheTopRowsOfAll() {
    String sql = "select id, name, n from t order by n desc nulls last, id fetch first 50 rows "
        + "only";
    List<List<@Nullable Object>> merged = drain(merge(requests(sql), ID_NAME_N,
        TestPools.scanOptions(4), comparator("2:desc:last 0:asc:last")));

    assertEquals(200, merged.size());
    assertEquals(unsharded(sql, ID_NAME_N), merged.subList(0, 50));
  }

  @Test void equalRowsComeInShardOrder() {
    RowReader reader = RowReader.of(List.of(ColumnKind.INTEGER, ColumnKind.STRING));
    List<List<@Nullable Object>> expected = new ArrayList<>();
    for (int k : new int[] {1, 2, 3}) {
      for (String shard : SHARDS) {
        for (int copies = k == 3 ? 1 : 2; copies > 0; copies--) {
          expected.add(List.of(k, shard));
        }
      }
    }
    // One-row batches make the shards' rows arrive interleaved in ever new ways.
    for (int run = 0; run < 5; run++) {
      assertEquals(expected, drain(merge(requests("select k, shard from ties order by k"),
          reader, TestPools.scanOptions(4).withBatching(1, 1), BY_ID)), "run " + run);
    }
    // Requests in another order: ties follow the requests, not the shard names.
    List<ShardRequest> reversed =
        new ArrayList<>(requests("select k, shard from ties order by k"));
    Collections.reverse(reversed);
    List<List<@Nullable Object>> rows =
        drain(merge(reversed, reader, TestPools.scanOptions(4), BY_ID));
    assertEquals(List.of(1, "s3"), rows.get(0));
    assertEquals(List.of(1, "s0"), rows.get(7));
    assertEquals(List.of(3, "s3"), rows.get(16));
    assertEquals(List.of(3, "s0"), rows.get(19));
  }

  @Test void mergesShardsOfUnevenSizesIncludingAnEmptyOne() {
    String sql = "select id, name, n from uneven order by id desc";
    List<List<@Nullable Object>> merged = drain(merge(requests(sql), ID_NAME_N,
        TestPools.scanOptions(4).withBatching(4, 1), comparator("0:desc:last")));

    List<List<@Nullable Object>> expected = new ArrayList<>();
    expected.add(Arrays.asList(7, "x", 1));
    IntStream.rangeClosed(1, 50).forEach(x -> expected.add(Arrays.asList(x * 2, "y", x)));
    IntStream.rangeClosed(1, 5).forEach(x -> expected.add(Arrays.asList(x * 3, "z", null)));
    expected.sort((a, b) -> Integer.compare((Integer) b.get(0), (Integer) a.get(0)));
    assertEquals(56, merged.size());
    assertEquals(expected, merged);
    assertEquals(4, shards.statementsExecuted());
  }

  @Test void mergeOfEmptyShardsIsEmpty() {
    ScanEnumerator<MergeCursor> merge = merge(requests("select id, name, n from empty order by id"),
        ID_NAME_N, TestPools.scanOptions(4), BY_ID);
    assertEquals(List.of(), drain(merge));
    assertFalse(merge.moveNext());
    assertEquals(4, shards.statementsExecuted());
  }

  @Test void mergeOfOneShardReturnsItsRows() {
    List<ShardRequest> requests =
        List.of(ShardRequest.of(shards.endpoint("s1"), "select id, name, n from uneven"));
    assertEquals(List.of(Arrays.asList(7, "x", 1)),
        drain(merge(requests, ID_NAME_N, TestPools.scanOptions(1), BY_ID)));
  }

  @Test void zeroRequestsAreEmptyAndStartNoThread() {
    ThreadPoolExecutor threads = (ThreadPoolExecutor) TestPools.services().scanThreads();
    long tasksBefore = threads.getTaskCount();
    ScanEnumerator<MergeCursor> merge = merge(List.of(), ID, TestPools.scanOptions(1), BY_ID);
    assertFalse(merge.moveNext());
    assertFalse(merge.moveNext());
    merge.close();
    assertEquals(tasksBefore, threads.getTaskCount());
  }

  @Test void sendsNothingBeforeTheFirstMoveNextNorAfterAnEarlyClose() {
    ScanEnumerator<MergeCursor> merge = merge(requests("select id from big order by id"), ID,
        TestPools.scanOptions(4), BY_ID);
    assertEquals(0, shards.statementsExecuted());
    merge.close();
    assertFalse(merge.moveNext());
    assertEquals(0, merge.startedRequests());
    assertEquals(0, shards.statementsExecuted());
  }

  @Test void opensEveryShardOnParallelismThreads() throws InterruptedException {
    // One thread opens every shard's statement and fills its buffer, a shard after another.
    ScanEnumerator<MergeCursor> merge = merge(requests("select id from big order by id"), ID,
        TestPools.scanOptions(4).withParallelism(1).withBatching(1, 1), BY_ID);
    try (merge) {
      assertTrue(merge.moveNext());
      assertEquals(1, merge.current()[0]);
      assertTrue(shards.awaitOpenStatements(4, Duration.ofSeconds(30)));
    }
    assertEquals(4, shards.peakOpenStatements());
    assertEquals(4, merge.startedRequests());
    assertEquals(1, merge.cursor().peakRunningTasks());
  }

  @Test void buffersAtMostItsShareOfTheBudgetForASlowConsumer() {
    // The budget of a scan's buffer, 3 batches of 16 rows, shared by four shards.
    ScanOptions options = TestPools.scanOptions(4).withBatching(16, 3);
    int share = MergeCursor.shareRows(options, SHARDS.size());
    assertEquals(12, share);
    ScanEnumerator<MergeCursor> merge =
        merge(requests("select id from big order by id"), ID, options, BY_ID);
    int rows = 0;
    int previous = 0;
    int maxSeen = 0;
    int maxTotal = 0;
    try (merge) {
      assertTrue(merge.moveNext());
      // Each shard filled its share and gave its head row to the heap; less than half of the
      // share is gone, so nothing is read until the consumer goes on.
      assertEquals(Collections.nCopies(4, share - 1), merge.cursor().bufferedRows());
      do {
        int id = (Integer) merge.current()[0];
        assertTrue(previous <= id, id + " after " + previous);
        previous = id;
        rows++;
        List<Integer> buffered = merge.cursor().bufferedRows();
        for (int shard : buffered) {
          maxSeen = Math.max(maxSeen, shard);
        }
        maxTotal = Math.max(maxTotal, buffered.stream().mapToInt(Integer::intValue).sum());
      } while (merge.moveNext());
    }
    assertEquals(4 * BIG_ROWS, rows);
    assertEquals(BIG_ROWS, previous);
    assertTrue(maxSeen <= share, "rows seen buffered for a shard: " + maxSeen);
    assertTrue(maxTotal <= MergeCursor.budgetRows(options), "rows seen buffered: " + maxTotal);
    assertEquals(Collections.nCopies(4, share), merge.cursor().peakBufferedRows());
    assertTrue(merge.cursor().peakRunningTasks() <= options.parallelism());
  }

  @Test void aShardBuffersAtLeastTheSmallestShareWhateverTheShards() {
    ScanOptions options = TestPools.scanOptions(4).withBatching(1, 1);
    assertEquals(MergeCursor.MIN_SHARE_ROWS, MergeCursor.shareRows(options, 4));
    assertEquals(ScanOptions.DEFAULT_BATCH_SIZE * ScanOptions.DEFAULT_BUFFER_BATCHES / 512,
        MergeCursor.shareRows(TestPools.scanOptions(512), 512));
  }

  @Test void closeAfterFiveRowsReleasesEveryShard() {
    ScanEnumerator<MergeCursor> merge = merge(
        requests("select id from big where id <= 10000 order by id"), ID,
        TestPools.scanOptions(4), BY_ID);
    List<Object> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      assertTrue(merge.moveNext());
      ids.add(merge.current()[0]);
    }
    merge.close();
    // Checked right away: close() returns only after every producer let go of its shard.
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertEquals(List.of(1, 1, 1, 1, 2), ids);
    assertFalse(merge.moveNext());
    merge.close();
  }

  @Test void closeFromAnotherThreadEndsTheMerge() throws Exception {
    ScanEnumerator<MergeCursor> merge = merge(requests("select id from big order by id"), ID,
        TestPools.scanOptions(4).withBatching(8, 1), BY_ID);
    assertTrue(merge.moveNext());
    CompletableFuture.runAsync(merge::close).get(60, TimeUnit.SECONDS);
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(merge.moveNext());
  }

  @Test void failureMidStreamNamesTheShardAndClosesEverything() {
    shards.failAfterRows("s2", 100);
    ScanEnumerator<MergeCursor> merge = merge(requests("select id from big order by id"), ID,
        TestPools.scanOptions(4).withBatching(10, 2), BY_ID);
    List<Integer> ids = new ArrayList<>();
    ShardException e = assertThrows(ShardException.class, () -> {
      while (merge.moveNext()) {
        ids.add((Integer) merge.current()[0]);
      }
    });
    assertInjectedFailure(e, "s2", 100);
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(merge.moveNext());
    // What came before the failure is sorted, and none of it is past s2's last row (id 100):
    // a shard that failed never counts as ended.
    List<Integer> sorted = new ArrayList<>(ids);
    Collections.sort(sorted);
    assertEquals(sorted, ids);
    assertTrue(ids.isEmpty() || ids.get(ids.size() - 1) <= 100, "last row " + ids);
  }

  @Test void cancelFlagStopsTheMerge() {
    AtomicBoolean cancel = new AtomicBoolean();
    ScanEnumerator<MergeCursor> merge = merge(requests("select id from big order by id"), ID,
        TestPools.scanOptions(4).withCancelFlag(cancel), BY_ID);
    assertTrue(merge.moveNext());
    cancel.set(true);
    CancellationException e = assertThrows(CancellationException.class, merge::moveNext);
    assertEquals("Statement canceled", e.getMessage());
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(merge.moveNext());
  }

  @Test void everyShardStatementGetsTheTimeLeft() {
    String sql = "select id, name, n from uneven order by id";
    drain(merge(requests(sql), ID_NAME_N, TestPools.scanOptions(4).withTimeoutMillis(1_500),
        BY_ID));
    // 1.5 s left rounds up to 2 s.
    for (String shard : SHARDS) {
      assertEquals(List.of(new CountingShards.Execution(sql, List.of(), 1000, 2, true)),
          shards.executions(shard), shard);
    }
  }

  @Test void aFailingComparatorEndsTheMergeAndClosesEverything() {
    Comparator<@Nullable Object[]> broken = (a, b) -> {
      throw new IllegalStateException("rows of " + a.length + " field cannot be compared");
    };
    ScanEnumerator<MergeCursor> merge = merge(List.of(
            ShardRequest.of(shards.endpoint("s0"), "select 1"),
            ShardRequest.of(shards.endpoint("s1"), "select 2")),
        ID, TestPools.scanOptions(2), broken);
    IllegalStateException e = assertThrows(IllegalStateException.class, merge::moveNext);
    assertEquals("rows of 1 field cannot be compared", e.getMessage());
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    assertFalse(merge.moveNext());
  }

  /** Waits until a condition holds; fails the test after 30 seconds. */
  private static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "condition not met within 30 s");
      Thread.yield();
    }
  }
}
