package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * Runs shard requests in parallel and concatenates their rows as they arrive.
 *
 * <p>The enumerator is lazy: nothing reaches a shard before the first {@code moveNext()}. Then up
 * to {@link ScanOptions#parallelism()} producers each take a pending request, run it and take the
 * next, so that at most that many shard statements run at once for the scan. Producers hand rows
 * in batches to one bounded buffer, so a scan holds at most about
 * {@code (bufferBatches + parallelism) * batchSize} rows however large the result is.
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
    return new ScanEnumerator(requests, reader, options);
  }
}
