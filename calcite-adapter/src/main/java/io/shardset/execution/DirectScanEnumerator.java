package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The enumerator of {@link ParallelScan#concat} over a single request: it reads the shard's
 * result set on the consumer's own thread. A pruned query reaches one shard, and handing its
 * rows from a producer thread to the consumer would cost two thread wake-ups per execution, more
 * than the rest of ShardSet's work on a point query; with nothing to overlap there is nothing
 * to gain from the producer thread.
 *
 * <p>It behaves like the parallel scans: nothing reaches the shard before the first
 * {@link #moveNext()}, rows stream (the driver's fetch size bounds what is held), a failure
 * names the shard, the cancel flag stops the scan with a {@link CancellationException} (the
 * running statement is canceled by {@link CancelWatch}), and {@link #close()} may come from any
 * thread: it cancels the running statement and returns once the connection is back in its
 * pool.
 */
final class DirectScanEnumerator implements Enumerator<@Nullable Object[]>,
    CancelWatch.Watched, ShardCursor.Registry {
  private final ShardRequest request;
  private final RowReader rowReader;
  private final ScanOptions options;
  private final long deadlineNanos;

  /** Held while the cursor is in use, so that another thread's close waits for it. */
  private final ReentrantLock lock = new ReentrantLock();
  private volatile boolean closed;
  private volatile @Nullable RunningStatement running;
  // Guarded by lock.
  private boolean started;
  private boolean exhausted;
  private @Nullable ShardCursor cursor;
  private @Nullable Object @Nullable [] current;

  DirectScanEnumerator(ShardRequest request, RowReader rowReader, ScanOptions options) {
    this.request = request;
    this.rowReader = rowReader;
    this.options = options;
    this.deadlineNanos =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis());
  }

  @Override public @Nullable Object[] current() {
    @Nullable Object[] row = current;
    if (row == null) {
      throw new NoSuchElementException("no current row");
    }
    return row;
  }

  @Override public boolean moveNext() {
    lock.lock();
    try {
      if (exhausted) {
        return false;
      }
      throwIfCanceled();
      if (!started) {
        started = true;
        cursor = closed ? null
            : ShardCursor.open(request, rowReader, this, options, deadlineNanos);
      }
      ShardCursor open = cursor;
      if (open != null) {
        open.waitingForConsumer(false);
      }
      @Nullable Object[] row = open == null || closed ? null : open.next();
      if (row == null) {
        end();
        throwIfCanceled();
        return false;
      }
      // Until the next call, the client takes its time, not the shard.
      open.waitingForConsumer(true);
      current = row;
      return true;
    } catch (RuntimeException | Error e) {
      end();
      // A statement canceled on request fails in the driver's own words; report the cancel.
      throwIfCanceled();
      throw e;
    } finally {
      lock.unlock();
    }
  }

  @Override public void reset() {
    throw new UnsupportedOperationException("a shard scan cannot be reset");
  }

  /**
   * Stops the scan and returns the connection to its pool. From another thread, it first
   * cancels the running statement, so that a consumer waiting in the driver lets go.
   */
  @Override public void close() {
    closed = true;
    if (!lock.tryLock()) {
      awaitConsumer();
    }
    try {
      end();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Cancels the running statement until the consumer lets go of the cursor, again every
   * {@link ShardProducers#RECANCEL_NANOS} because drivers ignore a cancel that arrives before
   * the statement executes; returns holding the lock.
   */
  private void awaitConsumer() {
    boolean interrupted = false;
    long begun = System.nanoTime();
    try {
      do {
        RunningStatement statement = running;
        if (statement != null
            && System.nanoTime() - begun > ShardProducers.ABANDON_AFTER_NANOS) {
          // The shard ignores the cancel: it does not answer at all.
          statement.abandon();
        } else {
          cancelRunning();
        }
        try {
          if (lock.tryLock(ShardProducers.RECANCEL_NANOS, TimeUnit.NANOSECONDS)) {
            return;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
      } while (true);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Ends the rows and releases the cursor; called under the lock. */
  private void end() {
    exhausted = true;
    current = null;
    ShardCursor open = cursor;
    cursor = null;
    if (open != null) {
      open.close();
    }
  }

  private void throwIfCanceled() {
    if (options.cancelRequested()) {
      throw new CancellationException("Statement canceled");
    }
  }

  @Override public void check(long nowNanos) {
    if (options.cancelRequested()) {
      cancelRunning();
    }
    RunningStatement statement = running;
    if (statement != null && statement.overdue(nowNanos)) {
      statement.abandon();
    }
  }

  private void cancelRunning() {
    RunningStatement statement = running;
    if (statement != null) {
      statement.cancel();
    }
  }

  @Override public boolean register(RunningStatement statement) {
    running = statement;
    // close() sets closed, then looks at running: one of the two sees the other.
    if (closed) {
      running = null;
      return false;
    }
    CancelWatch.watch(this);
    return true;
  }

  @Override public boolean stopped() {
    return closed;
  }

  @Override public void unregister(RunningStatement statement) {
    CancelWatch.unwatch(this);
    running = null;
  }
}
