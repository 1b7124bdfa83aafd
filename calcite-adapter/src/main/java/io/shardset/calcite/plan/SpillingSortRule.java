package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;

/**
 * Rule that gives every sort Calcite would run in memory above the shards (its own
 * {@link EnumerableSort}, made from an ORDER BY the shards cannot run or to order a merge
 * join's inputs) a {@link EnumerableSpillingSort} as its alternative, which the planner takes.
 */
public final class SpillingSortRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("SpillingSortRule",
      b0 -> b0.operand(EnumerableSort.class)
          .predicate(sort -> sort.getClass() == EnumerableSort.class
              && sort.offset == null && sort.fetch == null)
          .anyInputs(),
      SpillingSortRule::new);

  private SpillingSortRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final EnumerableSort sort = call.rel(0);
    call.transformTo(EnumerableSpillingSort.create(sort.getInput(), sort.getCollation()));
  }
}
