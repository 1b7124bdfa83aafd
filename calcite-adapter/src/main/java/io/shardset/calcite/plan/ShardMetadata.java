package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * What ShardSet's planning knows beyond Calcite's guesses: how many distinct values the
 * columns of a shard table hold, from the shards' statistics, and with them how many rows a
 * join on columns makes. Calcite guesses that an equality keeps 15 % of the rows of any join,
 * so a co-located join of LINEITEM with ORDERS was estimated at 10^11 rows and a join of
 * customers with suppliers on their nation at less than either: TPC-H Q05 then joined
 * customers with suppliers first, twelve million rows at scale factor 1. Here a join on
 * {@code a = b} keeps {@code 1 / max(distinct(a), distinct(b))} of the rows of both, as a
 * database's own planner estimates it, wherever both sides' distinct values are known; an
 * equality of unknown columns, and any other condition, keeps Calcite's guess.
 */
public final class ShardMetadata {
  /** ShardSet's handlers ahead of Calcite's. */
  public static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
      ReflectiveRelMetadataProvider.reflectiveSource(new DistinctValues(),
          BuiltInMetadata.DistinctRowCount.Handler.class),
      ReflectiveRelMetadataProvider.reflectiveSource(new JoinSelectivity(),
          BuiltInMetadata.Selectivity.Handler.class),
      DefaultRelMetadataProvider.INSTANCE));

  private ShardMetadata() {
  }

  /** The distinct values of a shard scan's columns (a shard table's own come from the
   * table, {@code ShardColumnDistincts}, as Calcite asks tables). */
  public static final class DistinctValues
      implements MetadataHandler<BuiltInMetadata.DistinctRowCount> {
    @Override public MetadataDef<BuiltInMetadata.DistinctRowCount> getDef() {
      return BuiltInMetadata.DistinctRowCount.DEF;
    }

    /** A shard scan's: those of what it pushed into the shards. */
    public @Nullable Double getDistinctRowCount(AbstractShardScan scan, RelMetadataQuery mq,
        ImmutableBitSet groupKey, @Nullable RexNode predicate) {
      return mq.getDistinctRowCount(scan.spec().pushed(), groupKey, predicate);
    }
  }

  /** The rows a join keeps, from its equalities' columns' distinct values. */
  public static final class JoinSelectivity
      implements MetadataHandler<BuiltInMetadata.Selectivity> {
    @Override public MetadataDef<BuiltInMetadata.Selectivity> getDef() {
      return BuiltInMetadata.Selectivity.DEF;
    }

    /** The share of the join's rows (of the product of its inputs', for an inner join) that
     * {@code predicate} keeps. */
    public @Nullable Double getSelectivity(Join join, RelMetadataQuery mq,
        @Nullable RexNode predicate) {
      final RexBuilder rexBuilder = join.getCluster().getRexBuilder();
      if (join.isSemiJoin()) {
        // As Calcite's own handler: the semi join's condition as a filter of its left side.
        final RexNode semi = RelMdUtil.makeSemiJoinSelectivityRexNode(mq, join);
        return mq.getSelectivity(join.getLeft(), predicate == null ? semi
            : rexBuilder.makeCall(SqlStdOperatorTable.AND, semi, predicate));
      }
      if (predicate == null) {
        return 1D;
      }
      final int leftCount = join.getLeft().getRowType().getFieldCount();
      double selectivity = 1;
      final List<RexNode> others = new ArrayList<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
        final double equality = equality(join, mq, conjunct, leftCount);
        if (Double.isNaN(equality)) {
          others.add(conjunct);
        } else {
          selectivity *= equality;
        }
      }
      return selectivity * RelMdUtil.guessSelectivity(
          RexUtil.composeConjunction(rexBuilder, others, true));
    }

    /** The share of rows an equality of a left and a right column keeps, or NaN if it is no
     * such equality or their distinct values are not known. */
    private static double equality(Join join, RelMetadataQuery mq, RexNode conjunct,
        int leftCount) {
      if (conjunct.getKind() != SqlKind.EQUALS
          || !(((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef a)
          || !(((RexCall) conjunct).getOperands().get(1) instanceof RexInputRef b)
          || a.getIndex() < leftCount == b.getIndex() < leftCount) {
        return Double.NaN;
      }
      final int left = Math.min(a.getIndex(), b.getIndex());
      final int right = Math.max(a.getIndex(), b.getIndex()) - leftCount;
      final Double leftValues = mq.getDistinctRowCount(join.getLeft(), ImmutableBitSet.of(left),
          null);
      final Double rightValues = mq.getDistinctRowCount(join.getRight(),
          ImmutableBitSet.of(right), null);
      if (leftValues == null || rightValues == null) {
        return Double.NaN;
      }
      return 1 / Math.max(1, Math.max(leftValues, rightValues));
    }
  }
}
