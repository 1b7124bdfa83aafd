package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shard of a {@link MergeCursor}: its cursor and a buffer of at most {@code share} rows.
 *
 * <p>A fill task, run by the merge's {@link ScanWorkers}, opens the cursor the first time, reads
 * rows until the buffer holds its share or the shard ends, and then gives its thread back; the
 * result set stays open, and the next task (perhaps on another thread) reads on. The consumer
 * submits the next task when it has drained the buffer to half its share, so the shard's next
 * row is usually there before it is needed, and at most one task per shard is queued or
 * running at any time.
 */
final class ShardFeed {
  private final ShardRequest request;
  private final RowReader rowReader;
  private final ScanOptions options;
  private final ScanControl control;
  private final ScanWorkers workers;
  private final int share;
  private final int lowWater;
  /** Runs once, when the shard has returned its last row. */
  private final Runnable onEnd;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Guarded by lock.
  private final ArrayDeque<@Nullable Object[]> rows;
  private boolean ended;
  /** Whether a fill task is queued or running. */
  private boolean scheduled;
  private int peakRows;
  // Used by one fill task at a time; released by a task or, once no reader is left, by the
  // thread that closed the scan.
  private boolean opened;
  private @Nullable ShardCursor cursor;

  /**
   * Creates the feed of one request.
   *
   * @param options the options of the shard's statement (a fetch size within the share)
   * @param share most rows buffered
   */
  ShardFeed(ShardRequest request, RowReader rowReader, ScanOptions options, ScanControl control,
      ScanWorkers workers, int share, Runnable onEnd) {
    this.request = request;
    this.rowReader = rowReader;
    this.options = options;
    this.control = control;
    this.workers = workers;
    this.share = share;
    this.lowWater = share / 2;
    this.onEnd = onEnd;
    this.rows = new ArrayDeque<>(share);
  }

  /** Returns the first fill task, which opens the shard's statement. */
  Runnable firstFill() {
    lock.lock();
    try {
      scheduled = true;
    } finally {
      lock.unlock();
    }
    return this::fill;
  }

  /**
   * Returns the shard's next row, waiting for it; null once the shard ended, or when the scan
   * stopped or its cancel flag is set (looked at every {@value BoundedBuffer#STOP_CHECK_MILLIS}
   * ms while it waits: nothing signals Calcite's flag).
   *
   * @throws CancellationException if the consumer is interrupted while it waits; the thread
   *     keeps its interrupt status
   */
  @Nullable Object @Nullable [] next() {
    @Nullable Object[] row;
    boolean refill = false;
    lock.lock();
    try {
      while (rows.isEmpty() && !ended && !control.isClosed()) {
        if (control.cancelRequested()) {
          return null;
        }
        try {
          changed.await(BoundedBuffer.STOP_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new CancellationException(
              "Statement canceled: the reading thread was interrupted");
        }
      }
      row = control.isClosed() ? null : rows.pollFirst();
      if (row != null && !ended && !scheduled && rows.size() <= lowWater) {
        scheduled = true;
        refill = true;
      }
    } finally {
      lock.unlock();
    }
    if (refill) {
      workers.submit(this::fill);
    }
    return row;
  }

  /** Wakes a consumer waiting for a row; the scan stopped. */
  void wake() {
    lock.lock();
    try {
      rows.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The fill task: reads rows into the buffer until it holds its share or the shard ends. */
  private void fill() {
    if (!control.enterReader()) {
      return;
    }
    boolean done = true;
    try {
      ShardCursor open = open();
      if (open != null) {
        open.waitingForConsumer(false);
        done = readRows(open);
        if (!done) {
          // Until the next task, the consumer takes its time, not the shard.
          open.waitingForConsumer(true);
        }
      }
    } catch (RuntimeException e) {
      control.fail(request.endpoint(), e);
    } catch (Error e) {
      control.fail(request.endpoint(), e);
      throw e;
    } finally {
      if (done) {
        release();
      }
      boolean refill = false;
      lock.lock();
      try {
        scheduled = false;
        if (!done && !control.isClosed() && rows.size() <= lowWater) {
          scheduled = true;
          refill = true;
        }
      } finally {
        lock.unlock();
      }
      if (control.exitReader()) {
        release();
      }
      if (refill) {
        workers.submit(this::fill);
      }
    }
  }

  private @Nullable ShardCursor open() {
    if (!opened) {
      opened = true;
      control.requestStarted();
      cursor = ShardCursor.open(request, rowReader, control, options, control.deadlineNanos());
    }
    return cursor;
  }

  /** Reads rows until the buffer is full, the scan stops or the shard ends; true at its end. */
  private boolean readRows(ShardCursor open) {
    int room = room();
    while (room > 0 && !control.isClosed()) {
      int wanted = Math.min(room, options.batchSize());
      List<@Nullable Object[]> chunk = new ArrayList<>(wanted);
      @Nullable Object @Nullable [] row = null;
      while (chunk.size() < wanted && (row = open.next()) != null) {
        chunk.add(row);
      }
      boolean end = row == null;
      room = append(chunk, end);
      if (end) {
        onEnd.run();
        return true;
      }
    }
    return false;
  }

  private int room() {
    lock.lock();
    try {
      return share - rows.size();
    } finally {
      lock.unlock();
    }
  }

  /** Adds rows for the consumer, and says whether they are the last; returns the room left. */
  private int append(List<@Nullable Object[]> chunk, boolean end) {
    lock.lock();
    try {
      if (!control.isClosed()) {
        rows.addAll(chunk);
        peakRows = Math.max(peakRows, rows.size());
      }
      ended = end;
      changed.signalAll();
      return share - rows.size();
    } finally {
      lock.unlock();
    }
  }

  /** Closes the shard's cursor if it is open. Idempotent, and safe to call from any thread. */
  synchronized void release() {
    ShardCursor open = cursor;
    cursor = null;
    if (open != null) {
      open.close();
    }
  }

  /** Returns the number of rows buffered now. */
  int bufferedRows() {
    lock.lock();
    try {
      return rows.size();
    } finally {
      lock.unlock();
    }
  }

  /** Returns the largest number of rows buffered at once. */
  int peakBufferedRows() {
    lock.lock();
    try {
      return peakRows;
    } finally {
      lock.unlock();
    }
  }
}
