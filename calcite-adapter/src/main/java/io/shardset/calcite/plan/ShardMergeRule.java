package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.topology.PrimaryKeyReader;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;

import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * Makes a MERGE into a sharded table executable as an {@link EnumerableShardMerge}: a native
 * upsert by primary key, whose input is the source alone, when {@link MergeShape} says it is
 * one; else row-wise over the source joined with the table. SQL-to-rel conversion makes a
 * MERGE a plain {@code LogicalTableModify} (it does not ask the table), so the rule matches
 * any logical TableModify of a {@link ShardTable}, and reads the Project and Join the
 * conversion made below it.
 */
public final class ShardMergeRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardMergeRule",
      b0 -> b0.operand(TableModify.class)
          .predicate(m -> m.getOperation() == TableModify.Operation.MERGE
              && m.getConvention() == Convention.NONE
              && m.getTable().unwrap(ShardTable.class) != null)
          .anyInputs(),
      ShardMergeRule::new);

  /** The rule; a {@link io.shardset.calcite.plan.ShardRules#register} adds it. */
  public static final ShardMergeRule INSTANCE = DEFAULT_CONFIG.toRule(ShardMergeRule.class);

  private ShardMergeRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final TableModify modify = call.rel(0);
    final ShardTable table = Objects.requireNonNull(
        modify.getTable().unwrap(ShardTable.class), "table");
    final List<Integer> key;
    try {
      key = PrimaryKeyReader.read(table.sharded());
    } catch (SQLException e) {
      throw new MergeRefusedException("MERGE into " + table.qualifiedName() + ": cannot read"
          + " its primary key: " + table.site(0).endpoint().redact(e.getMessage()));
    }
    if (key.isEmpty()) {
      throw new MergeRefusedException("MERGE into " + table.qualifiedName() + " is not"
          + " supported: the table has no primary key to address its rows by");
    }
    // The Project and Join as conversion made them: the first registered of their sets.
    if (!(original(modify.getInput()) instanceof LogicalProject project)
        || !(original(project.getInput()) instanceof LogicalJoin join)) {
      return;
    }
    final MergeShape shape = MergeShape.of(modify, project, join, table, key);
    if (shape == null) {
      return;
    }
    // A native upsert reads the source only; a row-wise MERGE the source joined with the
    // table.
    final RelNode rows = LogicalProject.create(shape.upsert() != null ? join.getLeft() : join,
        List.of(), shape.input(), (List<String>) null, project.getVariablesSet());
    final RelNode input = convert(rows,
        rows.getCluster().traitSetOf(EnumerableConvention.INSTANCE));
    call.transformTo(EnumerableShardMerge.create(modify, input, table, shape));
  }

  private static RelNode original(RelNode rel) {
    return rel instanceof RelSubset subset && subset.getOriginal() != null
        ? subset.getOriginal() : rel;
  }
}
