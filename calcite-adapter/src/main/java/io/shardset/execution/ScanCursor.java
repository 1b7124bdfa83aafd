package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The rows of a scan as its consumer reads them, one at a time, whichever thread reads the
 * shards: {@link DirectCursor} reads one shard on the consumer's own thread,
 * {@link ConcatCursor} and {@link MergeCursor} read many on scan threads into buffers. Every
 * one reads its shards through {@link ShardCursor} and stops through its scan's
 * {@link ScanControl}, which the {@link ScanEnumerator} closes.
 */
interface ScanCursor {
  /** Starts reading; called once, by the first {@code moveNext()}, unless the scan closed. */
  void start();

  /**
   * Returns the next row, waiting for it; null at the end of the rows, or when the scan
   * stopped (its control says why). Runs on the consumer's thread.
   */
  @Nullable Object @Nullable [] next();

  /**
   * Releases the shards' connections this cursor still holds, after its control closed and no
   * reader is left. Idempotent, and safe to call from any thread.
   */
  void release();
}
