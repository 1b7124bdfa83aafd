package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.InvalidRelException;
import org.apache.calcite.rel.core.Aggregate;

/**
 * Rule that gives every aggregation Calcite would hash in memory above the shards (the final
 * step of a split aggregation, the groups under a COUNT(DISTINCT), a grouping by an expression
 * ShardSet computes, a grouping of join rows) a {@link EnumerableSpillingAggregate} as its
 * alternative, which the planner takes. Aggregations without group keys hold one row and stay
 * Calcite's.
 */
public final class SpillingAggregateRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("SpillingAggregateRule",
      b0 -> b0.operand(EnumerableAggregate.class)
          .predicate(SpillingAggregateRule::hashed)
          .anyInputs(),
      SpillingAggregateRule::new);

  /** Calcite's own hash aggregation, with group keys and no grouping sets. */
  private static boolean hashed(EnumerableAggregate aggregate) {
    return aggregate.getClass() == EnumerableAggregate.class && Aggregate.isSimple(aggregate)
        && !aggregate.getGroupSet().isEmpty();
  }

  private SpillingAggregateRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final EnumerableAggregate aggregate = call.rel(0);
    try {
      call.transformTo(new EnumerableSpillingAggregate(aggregate.getCluster(),
          aggregate.getTraitSet(), aggregate.getInput(), aggregate.getGroupSet(),
          aggregate.getGroupSets(), aggregate.getAggCallList()));
    } catch (InvalidRelException e) {
      // An aggregate Calcite's own sorted implementation cannot run: it stays hashed.
    }
  }
}
