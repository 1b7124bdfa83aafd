package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * The enumerator of {@link ParallelScan#concat}: up to {@code parallelism} producers take the
 * pending requests one by one and put their batches into one shared buffer, which the consumer
 * reads in arrival order.
 */
final class ScanEnumerator extends AbstractScanEnumerator {
  private final BatchCursor cursor;

  ScanEnumerator(List<ShardRequest> requests, RowReader rowReader, ScanOptions options) {
    this(new BoundedBuffer<>(Objects.requireNonNull(options, "options").bufferBatches()),
        requests, rowReader, options);
  }

  private ScanEnumerator(BoundedBuffer<List<@Nullable Object[]>> buffer,
      List<ShardRequest> requests, RowReader rowReader, ScanOptions options) {
    super(new ShardProducers(List.of(buffer), lanes(buffer, requests, options.parallelism()),
        rowReader, options));
    this.cursor = new BatchCursor(buffer, options::cancelRequested);
  }

  /** Returns {@code parallelism} lanes, or fewer if there are fewer requests, sharing both. */
  private static List<ShardProducers.Lane> lanes(BoundedBuffer<List<@Nullable Object[]>> buffer,
      List<ShardRequest> requests, int parallelism) {
    Iterator<ShardRequest> pending = List.copyOf(requests).iterator();
    List<ShardProducers.Lane> lanes = new ArrayList<>();
    for (int i = 0; i < Math.min(parallelism, requests.size()); i++) {
      lanes.add(new ShardProducers.Lane(pending, buffer));
    }
    return lanes;
  }

  @Override @Nullable Object @Nullable [] nextRow() {
    return cursor.next();
  }

  /** Returns the number of batches buffered now. */
  int bufferedBatches() {
    return cursor.bufferedBatches();
  }

  /** Returns the largest number of batches buffered at once. */
  int peakBufferedBatches() {
    return cursor.peakBufferedBatches();
  }
}
