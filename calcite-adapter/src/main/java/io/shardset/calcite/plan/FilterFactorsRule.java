package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Rule that pulls the conjuncts every branch of an OR repeats out of it:
 * {@code (a.k = b.k AND x) OR (a.k = b.k AND y)} becomes {@code a.k = b.k AND (x OR y)}.
 * TPC-H's Q19 writes its join condition in each branch; left inside the OR, no rule sees an
 * equi-join, and the two tables are joined by comparing every pair of rows.
 */
public final class FilterFactorsRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("FilterFactorsRule",
      b -> b.operand(LogicalFilter.class).anyInputs(), FilterFactorsRule::new);

  private FilterFactorsRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalFilter filter = call.rel(0);
    final RexNode condition = filter.getCondition();
    final RexNode factored = RexUtil.pullFactors(filter.getCluster().getRexBuilder(),
        condition);
    // Only when a conjunct came out: a rewritten but no simpler condition would match again.
    if (RelOptUtil.conjunctions(factored).size() > RelOptUtil.conjunctions(condition).size()) {
      call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), factored));
    }
  }
}
