package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSortedAggregate;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.InvalidRelException;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * Calcite's {@link EnumerableAggregate} above the shards (the final step of an aggregation the
 * shards began, the groups of a COUNT(DISTINCT), a grouping of join rows), except that it runs
 * as a sort of its input by the group keys within the statement's sort memory
 * ({@link EnumerableSpillingSort}, spilling beyond it) followed by Calcite's
 * {@link EnumerableSortedAggregate}, which holds one group at a time: a grouping of millions of
 * distinct values never holds them all in the heap. When the shards began the aggregation
 * they return at most one row per group each, and the sort costs about what the hash table it
 * replaces would; over rows themselves (an expression the shards cannot compute, a join) the
 * sort is the price of a bounded memory. Its cost is a hair below Calcite's aggregate
 * ({@link SpillingCost}), so that the planner takes it wherever that would aggregate.
 */
public final class EnumerableSpillingAggregate extends EnumerableAggregate {
  EnumerableSpillingAggregate(RelOptCluster cluster, RelTraitSet traitSet, RelNode input,
      ImmutableBitSet groupSet, @Nullable List<ImmutableBitSet> groupSets,
      List<AggregateCall> aggCalls) throws InvalidRelException {
    super(cluster, traitSet, input, groupSet, groupSets, aggCalls);
  }

  @Override public EnumerableAggregate copy(RelTraitSet traitSet, RelNode input,
      ImmutableBitSet groupSet, @Nullable List<ImmutableBitSet> groupSets,
      List<AggregateCall> aggCalls) {
    try {
      return new EnumerableSpillingAggregate(getCluster(), traitSet, input, groupSet,
          groupSets, aggCalls);
    } catch (InvalidRelException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Explains itself as the aggregate it stands for. */
  @Override public String getRelTypeName() {
    return EnumerableAggregate.class.getSimpleName();
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner,
      RelMetadataQuery mq) {
    return SpillingCost.below(super.computeSelfCost(planner, mq));
  }

  /** Implements itself as a sorted aggregate of its input sorted by the group keys. */
  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final RelCollation byKeys = RelCollations.of(ImmutableIntList.copyOf(groupSet.asList()));
    final RelNode sorted = EnumerableSpillingSort.create(getInput(), byKeys);
    final EnumerableSortedAggregate streaming = new EnumerableSortedAggregate(getCluster(),
        getTraitSet().replace(RelCollations.of(
            ImmutableIntList.identity(groupSet.cardinality()))),
        sorted, groupSet, groupSets, aggCalls);
    return streaming.implement(implementor, pref);
  }
}
