package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.ProjectRemoveRule;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexPermuteInputsShuttle;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

import java.util.ArrayList;
import java.util.List;

/**
 * Rule that pushes a Project into a {@link ShardScan}. When every expression can run on the
 * shards the whole Project is pushed; otherwise only the columns it reads are, so that
 * unused columns never leave the shards, and the expressions stay above.
 */
public final class ShardProjectRule extends RelRule<ShardRuleConfig> {
  /** Pushed Projects are merged into the one below unless expressions grow past this. */
  private static final int BLOAT = 100;

  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardProjectRule",
      b0 -> b0.operand(LogicalProject.class)
          .oneInput(b1 -> b1.operand(ShardScan.class).noInputs()),
      ShardProjectRule::new);

  private ShardProjectRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalProject project = call.rel(0);
    final ShardScan scan = call.rel(1);
    final ShardScanSpec spec = scan.spec();
    if (ProjectRemoveRule.isTrivial(project) || !project.getVariablesSet().isEmpty()
        || !spec.phase().acceptsRowWise()) {
      return; // no effect, correlated, or too late to compute per row
    }
    if (!project.containsOver() && project.getProjects().stream()
        .allMatch(e -> PushdownPolicy.canPush(e, spec.table()))) {
      final RelNode pushed = push(spec.pushed(), project.getProjects(),
          project.getRowType().getFieldNames());
      call.transformTo(ShardScan.create(scan.getCluster(), spec.with(pushed,
          spec.condition())));
      return;
    }
    pushColumns(call, project, scan);
  }

  /** Pushes only the columns the Project reads, and keeps the Project above. */
  private static void pushColumns(RelOptRuleCall call, LogicalProject project,
      ShardScan scan) {
    final ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), null);
    final int fieldCount = scan.getRowType().getFieldCount();
    if (used.cardinality() == fieldCount) {
      return; // every column is needed: nothing to prune
    }
    final List<RexNode> refs = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    final List<RelDataTypeField> fields = scan.getRowType().getFieldList();
    for (int i : used) {
      refs.add(new RexInputRef(i, fields.get(i).getType()));
      names.add(fields.get(i).getName());
    }
    final ShardScanSpec spec = scan.spec();
    final ShardScan narrow = ShardScan.create(scan.getCluster(),
        spec.with(push(spec.pushed(), refs, names), spec.condition()));
    final Mappings.TargetMapping mapping = Mappings.target(used::indexOf, fieldCount,
        used.cardinality());
    final List<RexNode> rewritten = new ArrayList<>();
    for (RexNode e : project.getProjects()) {
      rewritten.add(e.accept(new RexPermuteInputsShuttle(mapping, narrow)));
    }
    call.transformTo(LogicalProject.create(narrow, project.getHints(), rewritten,
        project.getRowType()));
  }

  /** Adds a Project on top of the pushed tree, merged into a pushed Project below. */
  private static RelNode push(RelNode pushed, List<RexNode> exprs, List<String> names) {
    if (pushed instanceof LogicalProject below) {
      final List<RexNode> merged =
          RelOptUtil.pushPastProjectUnlessBloat(exprs, below, BLOAT);
      if (merged != null) {
        return LogicalProject.create(below.getInput(), List.of(), merged, names);
      }
    }
    return LogicalProject.create(pushed, List.of(), exprs, names);
  }
}
