package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptCost;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The cost of a node that computes what one of Calcite's enumerable nodes computes, within a
 * memory budget ({@link EnumerableSpillingSort}, {@link EnumerableSpillingAggregate},
 * {@link EnumerableSpillingHashJoin}): a hair below that node's, so that the planner takes it
 * wherever it would take Calcite's, and nowhere else.
 */
final class SpillingCost {
  /** What the cost is multiplied by, to win every tie with Calcite's node. */
  private static final double TIE_BREAK = 0.999;

  private SpillingCost() {
  }

  /** A hair below {@code cost}, the cost of the node it stands for. */
  static @Nullable RelOptCost below(@Nullable RelOptCost cost) {
    return cost == null ? null : cost.multiplyBy(TIE_BREAK);
  }
}
