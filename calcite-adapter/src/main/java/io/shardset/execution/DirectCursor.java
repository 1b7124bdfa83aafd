package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The cursor of a scan of one request: reads the shard's result set on the consumer's own
 * thread. A pruned query reaches one shard, and handing its rows from a scan thread to the
 * consumer would cost two thread wake-ups per execution, more than the rest of ShardSet's work
 * on a point query; with nothing to overlap there is nothing to gain from another thread.
 *
 * <p>The consumer is the scan's reader while it reads, so a close from another thread cancels
 * the running statement and waits for it like any scan's (see {@link ScanControl}); between
 * reads the shard's time limits do not count against it.
 */
final class DirectCursor implements ScanCursor {
  private final ShardRequest request;
  private final RowReader rowReader;
  private final ScanControl control;
  // Read and written by the reader; released by the reader or, once no reader is left, by
  // the thread that closed the scan.
  private boolean opened;
  private @Nullable ShardCursor cursor;

  DirectCursor(ShardRequest request, RowReader rowReader, ScanControl control) {
    this.request = request;
    this.rowReader = rowReader;
    this.control = control;
  }

  @Override public void start() {
    // Nothing reaches the shard before the first row is asked for, on the consumer's thread.
  }

  @Override public @Nullable Object @Nullable [] next() {
    if (!control.enterReader()) {
      return null;
    }
    try {
      ShardCursor open = open();
      if (open == null) {
        return null;
      }
      open.waitingForConsumer(false);
      @Nullable Object @Nullable [] row = open.next();
      if (row == null) {
        release();
        return null;
      }
      // Until the next call, the client takes its time, not the shard.
      open.waitingForConsumer(true);
      return row;
    } catch (RuntimeException | Error e) {
      release();
      throw e;
    } finally {
      if (control.exitReader()) {
        release();
      }
    }
  }

  private @Nullable ShardCursor open() {
    if (!opened) {
      opened = true;
      control.requestStarted();
      cursor = ShardCursor.open(request, rowReader, control, control.options(),
          control.deadlineNanos());
    }
    return cursor;
  }

  @Override public synchronized void release() {
    ShardCursor open = cursor;
    cursor = null;
    if (open != null) {
      open.close();
    }
  }
}
