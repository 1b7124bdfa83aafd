package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;

/**
 * Rule that gives every hash join Calcite would run in memory above the shards (its own
 * {@link EnumerableHashJoin} of rows the shards could not join themselves, and the semi- and
 * anti-joins of IN and EXISTS) a {@link EnumerableSpillingHashJoin} as its alternative, which
 * the planner takes.
 */
public final class SpillingHashJoinRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("SpillingHashJoinRule",
      b0 -> b0.operand(EnumerableHashJoin.class)
          .predicate(join -> join.getClass() == EnumerableHashJoin.class
              && EnumerableSpillingHashJoin.spills(join.getJoinType()))
          .anyInputs(),
      SpillingHashJoinRule::new);

  private SpillingHashJoinRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    call.transformTo(EnumerableSpillingHashJoin.of(call.rel(0)));
  }
}
