package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Runs shard requests in parallel and either concatenates their rows as they arrive or merges
 * rows that each shard returns sorted into one sorted stream.
 *
 * <p>Every scan is a {@link ScanEnumerator} over a {@link ScanCursor}, which reads its shards
 * through {@link ShardCursor}s and stops through one {@link ScanControl}: the same laziness,
 * failures, cancel, time limits and close whatever thread reads the shards. The enumerators are
 * lazy: nothing reaches a shard before the first {@code moveNext()}.
 *
 * <p>A concatenation of one request (a query pruned to one shard) reads that shard on the
 * consumer's thread ({@link DirectCursor}), without scan thread or buffer: there is nothing to
 * overlap, and the hand-over between threads would cost more than the rest of a point query's
 * work.
 *
 * <p>{@link #concat} of several requests ({@link ConcatCursor}) starts up to
 * {@link ScanOptions#parallelism()} scan threads; each takes a pending request, runs it and takes
 * the next, so that at most that many shard statements run at once for the scan. They hand rows
 * in batches of {@link ScanOptions#batchSize()} to one buffer of
 * {@link ScanOptions#bufferBatches()} batches, so a concatenation holds at most about
 * {@code (bufferBatches + parallelism) * batchSize} rows however large the result.
 *
 * <p>{@link #merge} ({@link MergeCursor}) cannot emit its first row before it has the first row
 * of every shard, so it opens every shard's statement. Its memory and threads do not grow with
 * the shards, though: the shards share a budget of {@code bufferBatches * batchSize} rows (each
 * at least {@value MergeCursor#MIN_SHARE_ROWS}), and at most {@code parallelism} scan threads
 * fill their buffers in short tasks that give the thread back when the shard's share is full.
 * It keeps a heap of each shard's current row and emits the smallest; it never sorts the whole
 * result.
 *
 * <p>Scan threads come from the runtime's pool of daemon threads ({@code shardset-scan-N},
 * see {@link ScanServices}) that grows as needed. A fixed pool would bound the threads, but a
 * concatenation's thread keeps it until the consumer reads its rows: a client that keeps one
 * ResultSet open while it runs another query on the same thread would then wait forever for
 * threads held by the unread one.
 *
 * <p>{@code close()} may come from any thread (Avatica closes statements from a cache-eviction
 * thread): it cancels running shard statements and returns after every reader has closed its
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
      ScanControl control = new ScanControl(options);
      return new ScanEnumerator<>(control, new DirectCursor(requests.get(0), reader, control));
    }
    return buffered(requests, reader, options);
  }

  /** Returns a concatenation that reads its requests on scan threads, however many they are. */
  static ScanEnumerator<ConcatCursor> buffered(List<ShardRequest> requests, RowReader reader,
      ScanOptions options) {
    ScanControl control = new ScanControl(options);
    return new ScanEnumerator<>(control, new ConcatCursor(requests, reader, control));
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
    return sorted(requests, reader, options, comparator);
  }

  /** Returns {@link #merge}'s enumerator, with its cursor. */
  static ScanEnumerator<MergeCursor> sorted(List<ShardRequest> requests, RowReader reader,
      ScanOptions options, Comparator<@Nullable Object[]> comparator) {
    ScanControl control = new ScanControl(Objects.requireNonNull(options, "options"));
    return new ScanEnumerator<>(control,
        new MergeCursor(requests, reader, control, comparator));
  }
}
