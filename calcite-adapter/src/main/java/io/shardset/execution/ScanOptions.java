package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tuning of one scan: how many shard statements run at once, how rows are batched and buffered,
 * the JDBC fetch size, the time left for the query and the cancel flag; and the runtime's
 * threads the scan runs on.
 *
 * @param services the threads of the runtime that runs the scan
 * @param parallelism most shard statements a concatenating scan runs at once, and most scan
 *     threads a merge takes (it opens every shard's statement, see {@link ParallelScan#merge})
 * @param batchSize rows per batch handed from a shard to the consumer
 * @param bufferBatches batches the scan buffers before shards wait for the consumer; a merge
 *     buffers as many rows in all, shared by its shards
 * @param fetchSize JDBC fetch size of every shard statement; 0 leaves the driver's default
 * @param timeout the query's time limit and what was left of it when the scan was created;
 *     each shard statement gets the time left when it starts, rounded up to whole seconds,
 *     and the scan stops when it is up
 * @param cancelFlag Calcite's DataContext cancel flag, or null
 * @param fewRowsExpected whether the query fixes the shard key to a few values, so that each
 *     shard most likely returns fewer than {@code fetchSize} rows; a shard whose driver streams
 *     only inside a transaction is then first asked for at most {@code fetchSize + 1} rows
 *     without one (see {@link ShardEndpoint#streamsInTransactionOnly()})
 */
public record ScanOptions(ScanServices services, int parallelism, int batchSize,
    int bufferBatches, int fetchSize, QueryTimeout timeout, @Nullable AtomicBoolean cancelFlag,
    boolean fewRowsExpected) {
  /** Upper limit of {@link #defaults}' parallelism. */
  public static final int DEFAULT_MAX_PARALLELISM = 16;
  public static final int DEFAULT_BATCH_SIZE = 256;
  public static final int DEFAULT_BUFFER_BATCHES = 16;
  public static final int DEFAULT_FETCH_SIZE = 1000;

  public ScanOptions {
    Objects.requireNonNull(services, "services");
    requireAtLeast("parallelism", parallelism, 1);
    requireAtLeast("batchSize", batchSize, 1);
    requireAtLeast("bufferBatches", bufferBatches, 1);
    requireAtLeast("fetchSize", fetchSize, 0);
    Objects.requireNonNull(timeout, "timeout");
  }

  /**
   * Returns the default options for a scan of this many shards, without timeout or cancel, run
   * on the threads of {@code services}.
   */
  public static ScanOptions defaults(int targetShards, ScanServices services) {
    int parallelism = Math.max(1, Math.min(targetShards, DEFAULT_MAX_PARALLELISM));
    return new ScanOptions(services, parallelism, DEFAULT_BATCH_SIZE, DEFAULT_BUFFER_BATCHES,
        DEFAULT_FETCH_SIZE, QueryTimeout.NONE, null, false);
  }

  public ScanOptions withParallelism(int parallelism) {
    return new ScanOptions(services, parallelism, batchSize, bufferBatches, fetchSize,
        timeout, cancelFlag, fewRowsExpected);
  }

  public ScanOptions withBatching(int batchSize, int bufferBatches) {
    return new ScanOptions(services, parallelism, batchSize, bufferBatches, fetchSize,
        timeout, cancelFlag, fewRowsExpected);
  }

  /** The same options with a query timeout of {@code timeoutMillis}, all of it left. */
  public ScanOptions withTimeoutMillis(long timeoutMillis) {
    return withTimeout(QueryTimeout.of(timeoutMillis, 0));
  }

  public ScanOptions withTimeout(QueryTimeout timeout) {
    return new ScanOptions(services, parallelism, batchSize, bufferBatches, fetchSize,
        timeout, cancelFlag, fewRowsExpected);
  }

  public ScanOptions withCancelFlag(@Nullable AtomicBoolean cancelFlag) {
    return new ScanOptions(services, parallelism, batchSize, bufferBatches, fetchSize,
        timeout, cancelFlag, fewRowsExpected);
  }

  public ScanOptions withFewRowsExpected(boolean fewRowsExpected) {
    return new ScanOptions(services, parallelism, batchSize, bufferBatches, fetchSize,
        timeout, cancelFlag, fewRowsExpected);
  }

  /** Returns whether the cancel flag is set. */
  boolean cancelRequested() {
    return cancelFlag != null && cancelFlag.get();
  }

  private static void requireAtLeast(String name, long value, long minimum) {
    if (value < minimum) {
      throw new IllegalArgumentException(
          name + " must be at least " + minimum + ", got " + value);
    }
  }
}
