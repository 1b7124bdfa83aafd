package io.shardset.calcite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.OptionalDouble;

/**
 * The distinct values of a shard table's columns for Calcite's planner, which asks a scan's
 * table for them: the product of the columns' distinct values as the shards' statistics say
 * ({@link ShardStatistic#distinctValues}), at most the rows the predicate keeps; where a
 * column's are not known, Calcite's answer without statistics (the rows, for a unique column;
 * otherwise none).
 */
final class ShardColumnDistincts implements BuiltInMetadata.DistinctRowCount.Handler {
  private final TableStatistic statistic;

  ShardColumnDistincts(TableStatistic statistic) {
    this.statistic = statistic;
  }

  @Override public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
    return BuiltInMetadata.DistinctRowCount.DEF;
  }

  @Override public @Nullable Double getDistinctRowCount(RelNode scan, RelMetadataQuery mq,
      ImmutableBitSet groupKey, @Nullable RexNode predicate) {
    if (groupKey.isEmpty()) {
      return 1D;
    }
    final double rows = mq.getRowCount(scan);
    final Double selectivity = mq.getSelectivity(scan, predicate);
    final double kept = rows * (selectivity == null ? 1 : selectivity);
    double product = 1;
    for (int column : groupKey) {
      final OptionalDouble values = statistic.distinctValues(column);
      if (values.isEmpty()) {
        return Boolean.TRUE.equals(mq.areColumnsUnique(scan, groupKey)) ? kept : null;
      }
      product *= values.getAsDouble();
    }
    final double all = Math.min(product, rows);
    // The values left in the rows a predicate keeps, as Calcite estimates them for a random
    // choice of rows.
    return predicate == null || predicate.isAlwaysTrue() ? all
        : RelMdUtil.numDistinctVals(all, kept);
  }
}
