package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.InvalidRelException;
import org.apache.calcite.rel.core.Aggregate;

/**
 * Rule that gives an aggregation Calcite would hash in memory over the rows of a shard scan
 * (the final step of a split aggregation, the groups under a COUNT(DISTINCT)), directly or
 * through what ShardSet computes of them, a
 * {@link EnumerableSpillingAggregate} as its alternative, which the planner takes. Groupings
 * of other inputs (a join above the shards) and those without group keys stay Calcite's.
 */
public final class SpillingAggregateRule extends RelRule<ShardRuleConfig> {
  /** The aggregation of a shard scan's rows. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("SpillingAggregateRule",
      b0 -> b0.operand(EnumerableAggregate.class)
          .predicate(SpillingAggregateRule::hashed)
          .oneInput(b1 -> b1.operand(EnumerableShardScan.class).anyInputs()),
      SpillingAggregateRule::new);

  /** The aggregation of what ShardSet computes of a shard scan's rows (an expression the
   * shards' SQL cannot compute alike); the planner has projections there, which become a
   * calculation after it. */
  static final ShardRuleConfig OVER_PROJECT_CONFIG = ShardRuleConfig.of(
      "SpillingAggregateRule:Project",
      b0 -> b0.operand(EnumerableAggregate.class)
          .predicate(SpillingAggregateRule::hashed)
          .oneInput(b1 -> b1.operand(EnumerableProject.class)
              .oneInput(b2 -> b2.operand(EnumerableShardScan.class).anyInputs())),
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
