package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Comparator;
import java.util.List;

/**
 * Runs shard requests in parallel and either concatenates their rows as they arrive or merges
 * rows that each shard returns sorted into one sorted stream.
 *
 * <p>The enumerators are lazy: nothing reaches a shard before the first {@code moveNext()}.
 * Producers hand rows in batches of {@link ScanOptions#batchSize()} to bounded buffers of
 * {@link ScanOptions#bufferBatches()} batches, so memory stays bounded however large the result.
 *
 * <p>{@link #concat} starts up to {@link ScanOptions#parallelism()} producers; each takes a
 * pending request, runs it and takes the next, so that at most that many shard statements run at
 * once for the scan. They share one buffer, so a concatenation holds at most about
 * {@code (bufferBatches + parallelism) * batchSize} rows.
 *
 * <p>A concatenation of one request (a query pruned to one shard) reads that shard on the
 * consumer's thread, without producer or buffer: there is nothing to overlap, and the hand-over
 * between threads would cost more than the rest of a point query's work.
 *
 * <p>{@link #merge} cannot emit its first row before it has the first row of every shard, so it
 * runs every request at once, one producer each, and ignores {@link ScanOptions#parallelism()}:
 * with fewer statements than shards it would wait forever for a shard that never started. Each
 * shard streams into its own buffer, so a merge holds at most about
 * {@code shards * (bufferBatches + 2) * batchSize} rows. It keeps a heap of each shard's current
 * row and emits the smallest; it never sorts the whole result.
 *
 * <p>Producers run on one process-wide pool of daemon threads ({@code shardset-scan-N}) that grows
 * as needed. A fixed pool would bound the threads, but a producer keeps its thread until the
 * consumer reads its rows: a client that keeps one ResultSet open while it runs another query on
 * the same thread would then wait forever for threads held by the unread one.
 *
 * <p>{@code close()} may come from any thread (Avatica closes statements from a cache-eviction
 * thread): it cancels running shard statements and returns after every producer has closed its
 * result set, statement and connection. A failure on any shard surfaces as a
 * {@link ShardException} from the next {@code moveNext()}, and stops the other shards likewise.
 * The cancel flag of {@link ScanOptions} stops the scan with a
 * {@link java.util.concurrent.CancellationException}. No thread is ever interrupted: that can
 * corrupt JDBC connections and H2 file stores.
 */
public final class ParallelScan {
  private ParallelScan() {
  }

  /** Returns an enumerator over the rows of all requests, in no particular order. */
  public static Enumerator<@Nullable Object[]> concat(List<ShardRequest> requests,
      RowReader reader, ScanOptions options) {
    if (requests.size() == 1) {
      return new DirectScanEnumerator(requests.get(0), reader, options);
    }
    return new ScanEnumerator(requests, reader, options);
  }

  /**
   * Merges shard results that each arrive sorted by {@code comparator} into one sorted stream.
   * Rows that compare equal come in the order of their requests.
   *
   * <p>The comparator must order rows exactly as the shards do, NULLs and string collation
   * included (see {@link RowComparator}); otherwise the result is sorted under no order.
   */
  public static Enumerator<@Nullable Object[]> merge(List<ShardRequest> requests,
      RowReader reader, ScanOptions options, Comparator<@Nullable Object[]> comparator) {
    return new MergeEnumerator(requests, reader, options, comparator);
  }
}
