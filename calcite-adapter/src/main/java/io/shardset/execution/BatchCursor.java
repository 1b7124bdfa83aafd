package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/** The consumer's position in the rows of one buffer of batches. */
final class BatchCursor {
  private final BoundedBuffer<List<@Nullable Object[]>> buffer;
  private final BooleanSupplier stop;
  private List<@Nullable Object[]> batch = List.of();
  private int position;

  /** Creates a cursor that stops waiting (returning null) once {@code stop} says so. */
  BatchCursor(BoundedBuffer<List<@Nullable Object[]>> buffer, BooleanSupplier stop) {
    this.buffer = buffer;
    this.stop = stop;
  }

  /**
   * Returns the next row, waiting for its batch; null once the buffer is finished and drained,
   * or closed, or when the stop condition holds while it waits.
   *
   * @throws CancellationException if the reading thread is interrupted while it waits; the
   *     thread keeps its interrupt status
   */
  @Nullable Object @Nullable [] next() {
    while (position == batch.size()) {
      List<@Nullable Object[]> next;
      try {
        next = buffer.take(stop);
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
