package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * The enumerator of {@link ParallelScan#merge}: one producer and one bounded buffer per shard,
 * and a heap of each shard's current row, from which the consumer takes the smallest.
 *
 * <p>Equal rows of different shards come in shard order (the order of the requests), so the
 * output does not depend on timing.
 */
final class MergeEnumerator extends AbstractScanEnumerator {
  private final List<BatchCursor> cursors;
  private final PriorityQueue<Head> heap;
  // Consumer state.
  private boolean primed;
  /** The shard whose row {@link #nextRow()} returned last; its next row is not in the heap. */
  private int lastShard = -1;

  MergeEnumerator(List<ShardRequest> requests, RowReader rowReader, ScanOptions options,
      Comparator<@Nullable Object[]> comparator) {
    this(buffers(requests.size(), Objects.requireNonNull(options, "options").bufferBatches()),
        requests, rowReader, options, comparator);
  }

  private MergeEnumerator(List<BoundedBuffer<List<@Nullable Object[]>>> buffers,
      List<ShardRequest> requests, RowReader rowReader, ScanOptions options,
      Comparator<@Nullable Object[]> comparator) {
    super(new ShardProducers(buffers, lanes(buffers, requests), rowReader, options));
    this.cursors = buffers.stream()
        .map(b -> new BatchCursor(b, options::cancelRequested)).toList();
    Objects.requireNonNull(comparator, "comparator");
    this.heap = new PriorityQueue<>(Math.max(1, requests.size()),
        Comparator.comparing(Head::row, comparator).thenComparingInt(Head::shard));
  }

  private static List<BoundedBuffer<List<@Nullable Object[]>>> buffers(int count,
      int bufferBatches) {
    List<BoundedBuffer<List<@Nullable Object[]>>> buffers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      buffers.add(new BoundedBuffer<>(bufferBatches));
    }
    return buffers;
  }

  /** Returns one lane per request, each into its own buffer. */
  private static List<ShardProducers.Lane> lanes(
      List<BoundedBuffer<List<@Nullable Object[]>>> buffers, List<ShardRequest> requests) {
    List<ShardProducers.Lane> lanes = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      Iterator<ShardRequest> request = List.of(requests.get(i)).iterator();
      lanes.add(new ShardProducers.Lane(request, buffers.get(i)));
    }
    return lanes;
  }

  @Override @Nullable Object @Nullable [] nextRow() {
    if (!primed) {
      // The first row can be any shard's: wait for the head row of every one.
      primed = true;
      for (int shard = 0; shard < cursors.size(); shard++) {
        advance(shard);
      }
    } else if (lastShard >= 0) {
      advance(lastShard);
    }
    Head head = heap.poll();
    if (head == null) {
      lastShard = -1;
      return null;
    }
    lastShard = head.shard();
    return head.row();
  }

  /** Puts the next row of a shard into the heap, waiting for it, unless the shard has ended. */
  private void advance(int shard) {
    @Nullable Object @Nullable [] row = cursors.get(shard).next();
    if (row != null) {
      heap.add(new Head(row, shard));
    } else if (producers.isClosed()) {
      // The buffer was closed, not finished: the shard has not ended, so no row of the heap is
      // known to be the smallest. The base class reports why the scan stopped.
      heap.clear();
    }
  }

  /** Returns the largest number of batches each shard's buffer held at once, in shard order. */
  List<Integer> peakBufferedBatches() {
    return cursors.stream().map(BatchCursor::peakBufferedBatches).toList();
  }

  /** Returns the number of batches buffered now, per shard. */
  List<Integer> bufferedBatches() {
    return cursors.stream().map(BatchCursor::bufferedBatches).toList();
  }

  /** A shard's current row. */
  private record Head(@Nullable Object[] row, int shard) {
  }
}
