package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs shard requests one after another on a producer thread and streams their rows, in
 * batches, into a {@link Sink}; every connection, statement and result set it opens is closed
 * before {@link #run} returns.
 */
final class ShardStream {
  /** Where a stream sends its batches, and how the scan learns which statement is running. */
  interface Sink extends ShardCursor.Registry {
    /** Hands over a batch, waiting for room; false if the scan closed or was canceled. */
    boolean offer(List<@Nullable Object[]> batch);
  }

  private final Sink sink;
  private final RowReader rowReader;
  private final ScanOptions options;
  /** {@link System#nanoTime()} at which the query times out; unused without timeout. */
  private final long deadlineNanos;

  ShardStream(Sink sink, RowReader rowReader, ScanOptions options, long deadlineNanos) {
    this.sink = sink;
    this.rowReader = rowReader;
    this.options = options;
    this.deadlineNanos = deadlineNanos;
  }

  /**
   * Streams the rows of one request into the sink. Returns when they are all handed over or the
   * scan closed.
   *
   * @throws ShardException naming the shard that failed
   */
  void run(ShardRequest request) {
    try (ShardCursor cursor = ShardCursor.open(request, rowReader, sink, options,
        deadlineNanos)) {
      if (cursor != null) {
        copyRows(cursor);
      }
    }
  }

  private void copyRows(ShardCursor cursor) {
    int batchSize = options.batchSize();
    List<@Nullable Object[]> batch = new ArrayList<>(batchSize);
    @Nullable Object[] row;
    while ((row = cursor.next()) != null) {
      batch.add(row);
      if (batch.size() == batchSize) {
        if (!offer(cursor, batch)) {
          return;
        }
        batch = new ArrayList<>(batchSize);
      }
    }
    if (!batch.isEmpty()) {
      offer(cursor, batch);
    }
  }

  /** Hands a batch over; the shard's time limits do not count while the consumer is slow. */
  private boolean offer(ShardCursor cursor, List<@Nullable Object[]> batch) {
    cursor.waitingForConsumer(true);
    try {
      return sink.offer(batch);
    } finally {
      cursor.waitingForConsumer(false);
    }
  }
}
