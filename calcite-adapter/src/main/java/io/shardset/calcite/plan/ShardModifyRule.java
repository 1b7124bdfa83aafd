package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalTableModify;

import java.util.Objects;

/**
 * Rule that makes Calcite's change of a sharded table a {@link ShardTableModify}: SQL-to-rel
 * conversion asks the table for its INSERT ({@link ShardTable#toModificationRel}), but makes
 * UPDATE, DELETE and MERGE a LogicalTableModify itself.
 */
public final class ShardModifyRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardModifyRule",
      b0 -> b0.operand(LogicalTableModify.class)
          .predicate(m -> m.getTable().unwrap(ShardTable.class) != null).anyInputs(),
      ShardModifyRule::new);

  private ShardModifyRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalTableModify modify = call.rel(0);
    final ShardTable table = Objects.requireNonNull(
        modify.getTable().unwrap(ShardTable.class), "table");
    call.transformTo(ShardTableModify.create(modify.getTable(), modify.getCatalogReader(),
        modify.getInput(), modify.getOperation(), modify.getUpdateColumnList(),
        modify.getSourceExpressionList(), modify.isFlattened(), table));
  }
}
