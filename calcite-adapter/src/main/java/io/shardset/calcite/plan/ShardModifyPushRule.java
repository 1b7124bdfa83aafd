package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.SqlTemplate;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * Rule that lets the shards run an UPDATE or DELETE themselves: when the read of the rows to
 * change became one {@link ShardScan} (the filter rule pushed the whole WHERE clause and, for
 * an UPDATE, the project rule every SET expression, under the pushdown policy reads follow),
 * the write becomes an {@link EnumerableShardPushedModify} that sends each target physical
 * table one UPDATE or DELETE and reaches the shards that scan would. Otherwise, or when an
 * UPDATE sets a column that decides where rows live (they may have to move), the write goes
 * row by row ({@link ShardTableModifyRule}).
 */
public final class ShardModifyPushRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardModifyPushRule",
      b0 -> b0.operand(ShardTableModify.class)
          .oneInput(b1 -> b1.operand(ShardScan.class).noInputs()),
      ShardModifyPushRule::new);

  private ShardModifyPushRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final ShardTableModify modify = call.rel(0);
    final ShardScan scan = call.rel(1);
    final ShardScanSpec spec = scan.spec();
    final ShardTable table = modify.shardTable();
    final boolean update = modify.getOperation() == TableModify.Operation.UPDATE;
    if (!update && modify.getOperation() != TableModify.Operation.DELETE
        || spec.table() != table) {
      return;
    }
    final List<Integer> updated = EnumerableShardTableModify.updatedColumns(modify);
    if (updated.stream().anyMatch(c -> routes(table, c))) {
      return; // the row may have to move to another shard or table
    }
    final int columns = table.layout().columns().size();
    RelNode below = spec.pushed();
    List<RexNode> sources = List.of();
    if (below instanceof LogicalProject project) {
      final List<RexNode> exprs = project.getProjects();
      if (exprs.size() != columns + updated.size() || !identity(exprs, columns)) {
        return;
      }
      sources = exprs.subList(columns, exprs.size());
      below = project.getInput();
    } else if (update) {
      return;
    }
    final RelNode filtered = below;
    if (!(filtered instanceof TableScan || filtered instanceof LogicalFilter filter
        && filter.getInput() instanceof TableScan)) {
      return;
    }
    final List<String> names = update ? modify.getUpdateColumnList() : null;
    final @Nullable List<List<SqlTemplate.Rendered>> statements =
        ShardDmlGenerator.render(table, filtered, names, sources);
    if (statements == null) {
      return;
    }
    call.transformTo(EnumerableShardPushedModify.create(modify, spec, statements));
  }

  /** Whether a column decides where a row of the table lives. */
  private static boolean routes(ShardTable table, int column) {
    return table.keyColumns().contains(column) || table.subpartitioning() != null
        && table.subpartitioning().column() == column;
  }

  /** Whether the first {@code columns} expressions are the input's columns, in order. */
  private static boolean identity(List<RexNode> exprs, int columns) {
    for (int i = 0; i < columns; i++) {
      if (!(exprs.get(i) instanceof RexInputRef ref) || ref.getIndex() != i) {
        return false;
      }
    }
    return true;
  }
}
