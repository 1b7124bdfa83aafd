package io.shardset.calcite;

import io.shardset.topology.RowEstimateReader;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;

import org.apache.calcite.schema.Statistic;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A sharded table's statistic for the planner: its row count, the sum over its shards of each
 * shard's own estimate for its physical table (see {@link RowEstimateReader}); one copy for a
 * duplicated table, every subpartition table of a subpartitioned one.
 *
 * <p>Read when the planner first asks, not when a connection opens, on the runtime's threads,
 * several shards at a time; kept with the table, which connections of the same model version
 * share (see {@link ModelTables}). The first planning waits for the read at most
 * {@link #WAIT_MILLIS}; a planning while it runs on longer does not wait. A shard that cannot
 * be read or keeps no estimate makes the count unknown (Calcite then assumes 100 rows), never
 * an error; so does an estimate of no rows at all. A schema that reads only some shards up
 * front ({@code "checkShards": "onFirstUse"}) asks at most {@link #SAMPLE} shards and counts
 * the others as having their average.
 */
final class ShardRowCount implements Statistic {
  private static final Logger LOG = LoggerFactory.getLogger(ShardRowCount.class);
  /** How long the first planning that asks waits for the shards' estimates. */
  static final long WAIT_MILLIS = 2_000;
  /** How many shards are asked at once. */
  private static final int PARALLELISM = 16;
  /**
   * How many shards are asked when the schema reads only some shards up front: the table's
   * first, whose tables opening read; asking others would connect to them, and check them,
   * before any statement needs them. (Connecting to the first shard may check it too, for the
   * quoting and dialect it was taken to share with the first shard of its kind.)
   */
  static final int SAMPLE = 1;

  private final ShardedTable table;
  private final Executor threads;
  private final int sample;
  /** The read, once started; guarded by this. */
  private @Nullable CompletableFuture<OptionalDouble> read;

  /**
   * Creates the statistic of a table, reading nothing yet.
   *
   * @param threads where the shards are read
   */
  ShardRowCount(ShardedTable table, Executor threads) {
    this(table, threads, Integer.MAX_VALUE);
  }

  /**
   * Creates the statistic of a table that asks at most {@code sample} of its shards, spread
   * over them, and counts the others as having their average; reading nothing yet.
   *
   * @param threads where the shards are read
   */
  ShardRowCount(ShardedTable table, Executor threads, int sample) {
    if (sample < 1) {
      throw new IllegalArgumentException("sample must be positive: " + sample);
    }
    this.table = table;
    this.threads = threads;
    this.sample = sample;
  }

  @Override public @Nullable Double getRowCount() {
    final CompletableFuture<OptionalDouble> started;
    final boolean first;
    synchronized (this) {
      first = read == null;
      if (first) {
        read = start();
      }
      started = read;
    }
    try {
      final OptionalDouble rows = first ? started.get(WAIT_MILLIS, TimeUnit.MILLISECONDS)
          : started.getNow(OptionalDouble.empty());
      return rows.isPresent() ? rows.getAsDouble() : null;
    } catch (TimeoutException | ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private CompletableFuture<OptionalDouble> start() {
    try {
      return CompletableFuture.supplyAsync(this::readShards, threads);
    } catch (RejectedExecutionException e) {
      // The runtime is closing: nothing will be planned for long.
      return CompletableFuture.completedFuture(OptionalDouble.empty());
    }
  }

  /** The sum of the shards' estimates, or empty if a shard has none or cannot be read. */
  private OptionalDouble readShards() {
    final List<ShardSite> sites = new ArrayList<>();
    if (table.isDuplicated()) {
      sites.add(table.site(table.readShard()));
    } else {
      final int count = table.shardCount();
      final int asked = Math.min(count, sample);
      for (int i = 0; i < asked; i++) {
        sites.add(table.site((int) ((long) i * count / asked)));
      }
    }
    final AtomicLongArray rows = new AtomicLongArray(sites.size());
    final List<Runnable> tasks = new ArrayList<>();
    for (int i = 0; i < sites.size(); i++) {
      final int index = i;
      tasks.add(() -> rows.set(index, read(sites.get(index))));
    }
    BoundedTasks.run(tasks, threads, PARALLELISM);
    double sum = 0;
    for (int i = 0; i < rows.length(); i++) {
      if (rows.get(i) < 0) {
        return OptionalDouble.empty();
      }
      sum += rows.get(i);
    }
    // No rows at all is more often an estimate not made yet (a table loaded since
    // PostgreSQL's last ANALYZE, InnoDB's statistics not updated yet) than an empty table, and
    // planning for an empty table that is not would be far worse than Calcite's guess.
    final double total = sum * (table.isDuplicated() ? 1 : (double) table.shardCount()
        / sites.size());
    return total == 0 ? OptionalDouble.empty() : OptionalDouble.of(total);
  }

  /** The rows of a table on one shard, over its subpartition tables if it has them; -1 if
   * unknown. */
  private long read(ShardSite site) {
    try (Connection connection = site.endpoint().connect()) {
      long sum = 0;
      for (ShardSite physical : site.tables()) {
        final OptionalLong rows =
            RowEstimateReader.read(connection, physical.quoting(), physical.qualifiedName());
        if (rows.isEmpty()) {
          return -1;
        }
        sum += rows.getAsLong();
      }
      return sum;
    } catch (SQLException | RuntimeException e) {
      LOG.debug("table {}: no row estimate from shard '{}': {}", table.qualifiedName(),
          site.name(), site.endpoint().redact(String.valueOf(e.getMessage())));
      return -1;
    }
  }
}
