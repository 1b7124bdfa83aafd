package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cursor of {@link ParallelScan#merge}: a {@link ShardFeed} per shard and a heap of each
 * shard's current row, from which the consumer takes the smallest.
 *
 * <p>A merge needs the head row of every shard before it can return its first row, so every
 * shard's statement is opened, but the rows it buffers and the threads it takes do not grow
 * with the number of shards: the shards share a budget of {@link #budgetRows} rows, each
 * buffering at most its {@link #shareRows share} (never fewer than {@value #MIN_SHARE_ROWS}), and
 * at most {@link ScanOptions#parallelism()} scan threads fill the buffers, one short task at a
 * time. Each shard's statement runs with a fetch size and read-ahead within its share, so that
 * the driver holds no more.
 *
 * <p>Equal rows of different shards come in shard order (the order of the requests), so the
 * output does not depend on timing.
 */
final class MergeCursor implements ScanCursor {
  /**
   * The fewest rows a shard buffers, however many shards share the budget: its head row and
   * one more are there while a task fetches the next ones.
   */
  static final int MIN_SHARE_ROWS = 4;

  private final ScanControl control;
  private final ScanWorkers workers;
  private final List<ShardFeed> feeds;
  private final PriorityQueue<Head> heap;
  /** Shards that have not returned their last row; the workers retire when none is left. */
  private final AtomicInteger unfinished;
  // Consumer state.
  private boolean primed;
  /** The shard whose row {@link #next()} returned last; its next row is not in the heap. */
  private int lastShard = -1;

  MergeCursor(List<ShardRequest> requests, RowReader rowReader, ScanControl control,
      Comparator<@Nullable Object[]> comparator) {
    Objects.requireNonNull(comparator, "comparator");
    this.control = control;
    ScanOptions options = control.options();
    this.workers = new ScanWorkers(options.services().scanThreads(),
        options.parallelism());
    this.unfinished = new AtomicInteger(requests.size());
    int share = shareRows(options, requests.size());
    ScanOptions shardOptions = shardOptions(options, share);
    List<ShardFeed> feeds = new ArrayList<>();
    for (ShardRequest request : requests) {
      feeds.add(new ShardFeed(request, rowReader, shardOptions, control, workers, share,
          this::shardEnded));
    }
    this.feeds = List.copyOf(feeds);
    this.heap = new PriorityQueue<>(Math.max(1, requests.size()),
        Comparator.comparing(Head::row, comparator).thenComparingInt(Head::shard));
    control.onStop(() -> {
      workers.stop();
      this.feeds.forEach(ShardFeed::wake);
    });
  }

  /** The rows a merge buffers in all: what a concatenating scan's buffer holds. */
  static int budgetRows(ScanOptions options) {
    return options.batchSize() * options.bufferBatches();
  }

  /** The rows each of {@code shards} shards buffers at most. */
  static int shareRows(ScanOptions options, int shards) {
    return Math.max(MIN_SHARE_ROWS, budgetRows(options) / Math.max(1, shards));
  }

  /**
   * The options of a shard's statement: batches, fetch size and read-ahead (see
   * {@link ShardCursor#prefetchRows}) within the shard's share.
   */
  private static ScanOptions shardOptions(ScanOptions options, int share) {
    int fetchSize = options.fetchSize() == 0 ? 0 : Math.min(options.fetchSize(), share);
    return new ScanOptions(options.services(), options.parallelism(),
        Math.min(options.batchSize(), share), 1, fetchSize, options.timeout(),
        options.cancelFlag(), options.fewRowsExpected());
  }

  @Override public void start() {
    if (!feeds.isEmpty()) {
      workers.start(feeds.stream().map(ShardFeed::firstFill).toList());
    }
  }

  @Override public @Nullable Object @Nullable [] next() {
    if (!primed) {
      // The first row can be any shard's: wait for the head row of every one.
      primed = true;
      for (int shard = 0; shard < feeds.size(); shard++) {
        advance(shard);
      }
    } else if (lastShard >= 0) {
      advance(lastShard);
    }
    Head head = heap.poll();
    if (head == null) {
      lastShard = -1;
      return null;
    }
    lastShard = head.shard();
    return head.row();
  }

  /** Puts the next row of a shard into the heap, waiting for it, unless the shard has ended. */
  private void advance(int shard) {
    @Nullable Object @Nullable [] row = feeds.get(shard).next();
    if (row != null) {
      heap.add(new Head(row, shard));
    } else if (control.isClosed() || control.cancelRequested()) {
      // The shard has not ended, so no row of the heap is known to be the smallest. The
      // enumerator reports why the scan stopped.
      heap.clear();
    }
  }

  private void shardEnded() {
    if (unfinished.decrementAndGet() == 0) {
      workers.retire();
    }
  }

  @Override public void release() {
    workers.stop();
    feeds.forEach(ShardFeed::release);
  }

  /** Returns the rows each shard buffers now, in shard order. */
  List<Integer> bufferedRows() {
    return feeds.stream().map(ShardFeed::bufferedRows).toList();
  }

  /** Returns the largest number of rows each shard buffered at once, in shard order. */
  List<Integer> peakBufferedRows() {
    return feeds.stream().map(ShardFeed::peakBufferedRows).toList();
  }

  /** Returns the most fill tasks that ran at once. */
  int peakRunningTasks() {
    return workers.peakRunningTasks();
  }

  /** A shard's current row. */
  private record Head(@Nullable Object[] row, int shard) {
  }
}
