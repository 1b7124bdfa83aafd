package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.concurrent.CancellationException;

/** The consumer's position in the rows of one buffer of batches. */
final class BatchCursor {
  private final BoundedBuffer<List<@Nullable Object[]>> buffer;
  private List<@Nullable Object[]> batch = List.of();
  private int position;

  BatchCursor(BoundedBuffer<List<@Nullable Object[]>> buffer) {
    this.buffer = buffer;
  }

  /**
   * Returns the next row, waiting for its batch; null once the buffer is finished and drained,
   * or closed.
   *
   * @throws CancellationException if the reading thread is interrupted while it waits; the
   *     thread keeps its interrupt status
   */
  @Nullable Object @Nullable [] next() {
    while (position == batch.size()) {
      List<@Nullable Object[]> next;
      try {
        next = buffer.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancellationException(
            "Statement canceled: the reading thread was interrupted");
      }
      if (next == null) {
        return null;
      }
      batch = next;
      position = 0;
    }
    return batch.get(position++);
  }

  /** Returns the number of batches buffered now. */
  int bufferedBatches() {
    return buffer.size();
  }

  /** Returns the largest number of batches buffered at once. */
  int peakBufferedBatches() {
    return buffer.peakSize();
  }
}
