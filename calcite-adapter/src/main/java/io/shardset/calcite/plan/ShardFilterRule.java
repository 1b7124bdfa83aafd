package io.shardset.calcite.plan;

import io.shardset.routing.KeyCondition;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Rule that pushes a Filter into a {@link ShardScan}: the conjuncts every shard can evaluate
 * go into the pushed SQL, the rest stay above; the pushed part on the shard key narrows the
 * target shards.
 */
public final class ShardFilterRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardFilterRule",
      b0 -> b0.operand(LogicalFilter.class)
          .oneInput(b1 -> b1.operand(ShardScan.class).noInputs()),
      ShardFilterRule::new);

  private ShardFilterRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalFilter filter = call.rel(0);
    final ShardScan scan = call.rel(1);
    final ShardScanSpec spec = scan.spec();
    if (!filter.getVariablesSet().isEmpty() || !spec.phase().acceptsRowWise()) {
      return; // correlated (the shard cannot see the outer row), or too late to filter rows
    }
    final List<RexNode> pushable = new ArrayList<>();
    final List<RexNode> residual = new ArrayList<>();
    final RexNode exact = IntegerComparisons.rewrite(filter.getCondition(),
        filter.getCluster().getRexBuilder(), filter.getCluster().getPlanner().getExecutor());
    for (RexNode conjunct : RelOptUtil.conjunctions(exact)) {
      (PushdownPolicy.canPush(conjunct, spec.table()) ? pushable : residual).add(conjunct);
    }
    if (pushable.isEmpty()) {
      return; // no effect: creating a node would only make the planner loop
    }
    final RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
    final RexNode condition = RexUtil.composeConjunction(rexBuilder, pushable);
    final RelNode pushed = spec.pushed();
    final RelNode newPushed = addFilter(pushed, condition);
    final KeyCondition keyCondition =
        KeyConditionTranslator.translate(condition, KeyColumns.of(pushed, spec.table()),
            filter.getCluster());
    RelNode result = ShardScan.create(scan.getCluster(),
        spec.with(newPushed, KeyConditions.and(spec.condition(), keyCondition)));
    if (!residual.isEmpty()) {
      result = LogicalFilter.create(result, RexUtil.composeConjunction(rexBuilder, residual));
    }
    call.transformTo(result);
  }

  /** Adds a condition to the pushed tree, keeping it in the shape Scan, Filter, Project: a
   * Filter goes below a pushed Project (rewritten over the Project's input) and merges with
   * a pushed Filter, so that the shard SQL is one flat SELECT ... WHERE. */
  private static RelNode addFilter(RelNode pushed, RexNode condition) {
    if (pushed instanceof LogicalProject project) {
      final RelNode below = addFilter(project.getInput(),
          RelOptUtil.pushPastProject(condition, project));
      return LogicalProject.create(below, project.getHints(), project.getProjects(),
          project.getRowType());
    }
    if (pushed instanceof LogicalFilter previous) {
      final RexBuilder rexBuilder = pushed.getCluster().getRexBuilder();
      return LogicalFilter.create(previous.getInput(),
          RexUtil.composeConjunction(rexBuilder,
              List.of(previous.getCondition(), condition)));
    }
    return LogicalFilter.create(pushed, condition);
  }
}
