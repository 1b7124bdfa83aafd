package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * The logical change of a sharded table (INSERT, UPDATE, DELETE, MERGE) as SQL-to-rel
 * conversion makes it: {@link ShardTable#toModificationRel} creates it instead of Calcite's
 * LogicalTableModify, so that registering it adds the rules that make it executable even
 * when no scan of a sharded table is in the statement ({@code INSERT ... VALUES}).
 */
public final class ShardTableModify extends TableModify {
  private final ShardTable shardTable;

  private ShardTableModify(RelOptCluster cluster, RelTraitSet traitSet, RelOptTable table,
      Prepare.CatalogReader catalogReader, RelNode input, Operation operation,
      @Nullable List<String> updateColumnList, @Nullable List<RexNode> sourceExpressionList,
      boolean flattened, ShardTable shardTable) {
    super(cluster, traitSet, table, catalogReader, input, operation, updateColumnList,
        sourceExpressionList, flattened);
    this.shardTable = Objects.requireNonNull(shardTable, "shardTable");
  }

  /** Creates the logical change of a sharded table. */
  public static ShardTableModify create(RelOptTable table, Prepare.CatalogReader catalogReader,
      RelNode input, Operation operation, @Nullable List<String> updateColumnList,
      @Nullable List<RexNode> sourceExpressionList, boolean flattened, ShardTable shardTable) {
    final RelOptCluster cluster = input.getCluster();
    return new ShardTableModify(cluster, cluster.traitSetOf(Convention.NONE), table,
        catalogReader, input, operation, updateColumnList, sourceExpressionList, flattened,
        shardTable);
  }

  /** The sharded table changed. */
  public ShardTable shardTable() {
    return shardTable;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new ShardTableModify(getCluster(), traitSet, getTable(), getCatalogReader(),
        sole(inputs), getOperation(), getUpdateColumnList(), getSourceExpressionList(),
        isFlattened(), shardTable);
  }

  @Override public void register(RelOptPlanner planner) {
    ShardRules.register(planner);
    planner.addRule(ShardRules.MODIFY);
  }
}
