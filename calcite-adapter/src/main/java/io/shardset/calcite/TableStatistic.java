package io.shardset.calcite;

import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.OptionalDouble;

/** What the planner knows of a sharded table: Calcite's statistic, and its columns' distinct
 * values where the shards' statistics say. */
interface TableStatistic extends Statistic {
  /** Nothing known. */
  TableStatistic UNKNOWN = new TableStatistic() {
    @Override public @Nullable Double getRowCount() {
      return Statistics.UNKNOWN.getRowCount();
    }
  };

  /** The distinct values of a column over the whole table; empty when not known. */
  default OptionalDouble distinctValues(int column) {
    return OptionalDouble.empty();
  }
}
