package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * One shard statement of a {@link TrackedStatement}: the shard, the SQL it got, its time and
 * the rows it returned so far. The scan thread that reads the shard writes it; statement
 * listings read it from other threads while it runs.
 */
public final class ShardRun {
  private final String shard;
  private final String sql;
  private final long startNanos;
  /** Rows read so far; written by the reading thread alone, so a release store is enough. */
  private final AtomicLong rows = new AtomicLong();
  private volatile long endNanos;
  private volatile String state = "running";
  /** Told the rows at the end, for a statement that does not keep this run; or null. */
  private @Nullable LongConsumer onEnd;

  ShardRun(String shard, String sql, long startNanos) {
    this.shard = shard;
    this.sql = sql;
    this.startNanos = startNanos;
  }

  /** The shard's name. */
  public String shard() {
    return shard;
  }

  /** The SQL the shard got. */
  public String sql() {
    return sql;
  }

  /** The rows the shard has returned so far. */
  public long rows() {
    return rows.get();
  }

  /** {@code running}, or how the shard statement ended: ok, error, timeout or canceled. */
  public String state() {
    return state;
  }

  /** The shard statement's time so far, or until it ended, in milliseconds. */
  public double elapsedMillis() {
    final long end = endNanos;
    final long until = end != 0 ? end : System.nanoTime();
    return (until - startNanos) / (double) TimeUnit.MILLISECONDS.toNanos(1);
  }

  /** Has {@code consumer} told the rows at the end. */
  void onEnd(LongConsumer consumer) {
    this.onEnd = consumer;
  }

  void rows(long count) {
    rows.lazySet(count);
  }

  /** Records the end, with the rows returned (or changed); later calls change nothing. */
  public void end(long count, String outcome) {
    if (endNanos == 0) {
      rows.lazySet(count);
      state = outcome;
      // 0 marks a running statement: a clock that reads 0 at the end is moved on by one.
      final long now = System.nanoTime();
      endNanos = now == 0 ? 1 : now;
      if (onEnd != null) {
        onEnd.accept(count);
      }
    }
  }
}
