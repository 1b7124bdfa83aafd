package io.shardset.calcite;

import io.shardset.topology.ColumnDistinctReader;
import io.shardset.topology.RowEstimateReader;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A sharded table's statistic for the planner: its row count, the sum over its shards of each
 * shard's own estimate for its physical table (see {@link RowEstimateReader}); one copy for a
 * duplicated table, every subpartition table of a subpartitioned one; and its columns'
 * distinct values, where the first shard's statistics keep them (see
 * {@link ColumnDistinctReader}).
 *
 * <p>Read when the planner first asks, not when a connection opens, on the runtime's threads,
 * several shards at a time; kept with the table, which connections of the same model version
 * share (see {@link ModelTables}), as a {@link FirstUseRead}. A shard that cannot be read
 * or keeps no estimate makes the count unknown (Calcite then assumes 100 rows), never an
 * error; so does an estimate of no rows at all. A schema that reads only some shards up
 * front ({@code "checkShards": "onFirstUse"}) asks at most {@link #SAMPLE} shards and counts
 * the others as having their average.
 */
final class ShardStatistic implements TableStatistic {
  private static final Logger LOG = LoggerFactory.getLogger(ShardStatistic.class);
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
  private final FirstUseRead<OptionalDouble> read;
  /** The statistics' distinct values of each column, as {@link ColumnDistinctReader} reads
   * them from one shard; NaN where unknown. */
  private final FirstUseRead<double[]> distinct;

  /**
   * Creates the statistic of a table, reading nothing yet.
   *
   * @param threads where the shards are read
   */
  ShardStatistic(ShardedTable table, Executor threads) {
    this(table, threads, Integer.MAX_VALUE);
  }

  /**
   * Creates the statistic of a table that asks at most {@code sample} of its shards, spread
   * over them, and counts the others as having their average; reading nothing yet.
   *
   * @param threads where the shards are read
   */
  ShardStatistic(ShardedTable table, Executor threads, int sample) {
    if (sample < 1) {
      throw new IllegalArgumentException("sample must be positive: " + sample);
    }
    this.table = table;
    this.threads = threads;
    this.sample = sample;
    this.read = new FirstUseRead<>(this::readShards, threads, OptionalDouble.empty());
    this.distinct = new FirstUseRead<>(this::readDistinct, threads, new double[0]);
  }

  /**
   * The distinct values of a column over the whole table, from one shard's statistics. The
   * shard key of a table spread over its shards has values of its own on each shard, so the
   * shard's count, or share of its rows, holds for every shard, and the table's is their sum;
   * so does a unique column's. Any other column's values recur on every shard (an order's
   * customer, a line's part), so the shard's count is the table's.
   */
  @Override public OptionalDouble distinctValues(int column) {
    final double[] values = distinct.get();
    final Double rows = getRowCount();
    if (column >= values.length || Double.isNaN(values[column]) || rows == null) {
      return OptionalDouble.empty();
    }
    final double value = values[column];
    final int shards = table.isDuplicated() ? 1 : table.shardCount();
    final boolean ownValues = table.keyColumns().equals(List.of(column)) || value <= -1;
    final double shardRows = rows / shards;
    final double onShard = value < 0 ? -value * shardRows : Math.min(value, shardRows);
    return OptionalDouble.of(Math.max(1, Math.min(rows, ownValues ? onShard * shards
        : onShard)));
  }

  /** Each column's distinct values on the table's first shard (the copy read, for a
   * duplicated table); none for a subpartitioned table. */
  private double[] readDistinct() {
    final ShardSite site = table.site(table.isDuplicated() ? table.readShard() : 0);
    if (site.tables().size() != 1) {
      return new double[0];
    }
    try (Connection connection = site.endpoint().connect()) {
      final Map<String, Double> byName =
          ColumnDistinctReader.read(connection, site.quoting(), site.qualifiedName());
      final List<String> columns = site.physicalColumns();
      final double[] values = new double[columns.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = byName.getOrDefault(columns.get(i), Double.NaN);
      }
      return values;
    } catch (SQLException | RuntimeException e) {
      LOG.debug("table {}: no column statistics from shard '{}': {}", table.qualifiedName(),
          site.name(), site.endpoint().redact(String.valueOf(e.getMessage())));
      return new double[0];
    }
  }

  @Override public @Nullable Double getRowCount() {
    final OptionalDouble rows = read.get();
    return rows.isPresent() ? rows.getAsDouble() : null;
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
