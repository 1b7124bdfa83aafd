package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;

/**
 * Base of the enumerators of a {@link ParallelScan}: starts the producers on the first
 * {@link #moveNext()}, reports failure and cancel, and stops every shard when the scan ends by
 * close, failure or cancel, or when reading fails.
 */
abstract class AbstractScanEnumerator implements Enumerator<@Nullable Object[]> {
  final ShardProducers producers;

  // Consumer state.
  private boolean started;
  private @Nullable Object @Nullable [] current;
  private boolean exhausted;

  AbstractScanEnumerator(ShardProducers producers) {
    this.producers = producers;
  }

  /**
   * Returns the next row of the scan, waiting for it; null at the end of the rows, or when the
   * scan stopped. Runs on the consumer thread after the producers started.
   */
  abstract @Nullable Object @Nullable [] nextRow();

  @Override public final @Nullable Object[] current() {
    if (current == null) {
      throw new NoSuchElementException("no current row");
    }
    return current;
  }

  @Override public final boolean moveNext() {
    if (exhausted) {
      return false;
    }
    try {
      throwIfStopped();
      if (!started) {
        started = true;
        producers.start();
      }
      @Nullable Object @Nullable [] row = producers.isClosed() ? null : nextRow();
      if (row == null) {
        // The buffers end early when the scan fails or is canceled: say why.
        throwIfStopped();
        exhausted = true;
        current = null;
        return false;
      }
      current = row;
      return true;
    } catch (RuntimeException | Error e) {
      exhausted = true;
      current = null;
      close();
      throw e;
    }
  }

  @Override public final void reset() {
    throw new UnsupportedOperationException("a shard scan cannot be reset");
  }

  /**
   * Stops the scan: discards buffered rows, cancels running shard statements, starts no more
   * requests, and waits until every producer has closed its result set, statement and
   * connection. Idempotent, and safe to call from any thread.
   */
  @Override public final void close() {
    producers.close();
  }

  /** Returns the number of requests sent to a shard so far; the others were never started. */
  final int startedRequests() {
    return producers.startedRequests();
  }

  /** Throws if the scan was canceled or a shard failed. */
  private void throwIfStopped() {
    if (producers.cancelRequested()) {
      throw new CancellationException("Statement canceled");
    }
    Error error = producers.error();
    if (error != null) {
      throw error;
    }
    ShardException failure = producers.failure();
    if (failure != null) {
      throw failure;
    }
  }
}
