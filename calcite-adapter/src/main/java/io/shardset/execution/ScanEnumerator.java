package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;

/**
 * The enumerator of every {@link ParallelScan}: reads its {@link ScanCursor}, starting it on
 * the first {@link #moveNext()}, reports failure and cancel, and stops every shard through the
 * scan's {@link ScanControl} when the scan ends by close, failure or cancel, or when reading
 * fails.
 *
 * @param <C> the cursor type, which tests look into
 */
final class ScanEnumerator<C extends ScanCursor> implements Enumerator<@Nullable Object[]> {
  private final ScanControl control;
  private final C cursor;

  // Consumer state.
  private boolean started;
  private @Nullable Object @Nullable [] current;
  private boolean exhausted;

  ScanEnumerator(ScanControl control, C cursor) {
    this.control = control;
    this.cursor = cursor;
  }

  /** Returns the cursor the enumerator reads. */
  C cursor() {
    return cursor;
  }

  @Override public @Nullable Object[] current() {
    if (current == null) {
      throw new NoSuchElementException("no current row");
    }
    return current;
  }

  @Override public boolean moveNext() {
    if (exhausted) {
      return false;
    }
    try {
      throwIfStopped();
      if (!started) {
        started = true;
        if (!control.isClosed()) {
          cursor.start();
        }
      }
      @Nullable Object @Nullable [] row = control.isClosed() ? null : cursor.next();
      if (row == null) {
        // The rows end early when the scan fails or is canceled: say why.
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
      // A statement canceled on request fails in the driver's own words; report the cancel.
      throwIfCanceled();
      throw e;
    }
  }

  @Override public void reset() {
    throw new UnsupportedOperationException("a shard scan cannot be reset");
  }

  /**
   * Stops the scan: discards buffered rows, cancels running shard statements, starts no more
   * requests, and waits until every reader has let go of its shard; then returns the
   * connections still open to their pools. Idempotent, and safe to call from any thread.
   */
  @Override public void close() {
    control.close();
    if (control.noReaders()) {
      cursor.release();
    }
  }

  /** Returns the number of requests sent to a shard so far; the others were never started. */
  int startedRequests() {
    return control.startedRequests();
  }

  /** Throws if the scan was canceled or a shard failed. */
  private void throwIfStopped() {
    throwIfCanceled();
    Error error = control.error();
    if (error != null) {
      throw error;
    }
    ShardException failure = control.failure();
    if (failure != null) {
      throw failure;
    }
  }

  private void throwIfCanceled() {
    if (control.cancelRequested()) {
      throw new CancellationException("Statement canceled");
    }
  }
}
