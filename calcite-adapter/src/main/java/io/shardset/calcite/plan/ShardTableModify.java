package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
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
  private final List<Integer> defaulted;

  private ShardTableModify(RelOptCluster cluster, RelTraitSet traitSet, RelOptTable table,
      Prepare.CatalogReader catalogReader, RelNode input, Operation operation,
      @Nullable List<String> updateColumnList, @Nullable List<RexNode> sourceExpressionList,
      boolean flattened, ShardTable shardTable, List<Integer> defaulted) {
    super(cluster, traitSet, table, catalogReader, input, operation, updateColumnList,
        sourceExpressionList, flattened);
    this.shardTable = Objects.requireNonNull(shardTable, "shardTable");
    this.defaulted = List.copyOf(defaulted);
  }

  /**
   * Creates the logical change of a sharded table. The columns an INSERT leaves to the shards
   * are those SQL-to-rel conversion filled with {@code DEFAULT} ({@code ShardColumnDefaults}),
   * found here, while the input is as conversion made it: planning reduces {@code DEFAULT} to
   * NULL.
   */
  public static ShardTableModify create(RelOptTable table, Prepare.CatalogReader catalogReader,
      RelNode input, Operation operation, @Nullable List<String> updateColumnList,
      @Nullable List<RexNode> sourceExpressionList, boolean flattened, ShardTable shardTable) {
    final RelOptCluster cluster = input.getCluster();
    return new ShardTableModify(cluster, cluster.traitSetOf(Convention.NONE), table,
        catalogReader, input, operation, updateColumnList, sourceExpressionList, flattened,
        shardTable, operation == Operation.INSERT ? defaulted(input) : List.of());
  }

  /** The columns whose value the input leaves to the shards' defaults. */
  private static List<Integer> defaulted(RelNode input) {
    if (!(input instanceof Project project)) {
      return List.of();
    }
    final List<Integer> columns = new ArrayList<>();
    for (int i = 0; i < project.getProjects().size(); i++) {
      if (project.getProjects().get(i).getKind() == SqlKind.DEFAULT) {
        columns.add(i);
      }
    }
    return columns;
  }

  /** The sharded table changed. */
  public ShardTable shardTable() {
    return shardTable;
  }

  /** The columns an INSERT leaves out, for the shards to fill. */
  public List<Integer> defaulted() {
    return defaulted;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new ShardTableModify(getCluster(), traitSet, getTable(), getCatalogReader(),
        sole(inputs), getOperation(), getUpdateColumnList(), getSourceExpressionList(),
        isFlattened(), shardTable, defaulted);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).itemIf("defaults", defaulted, !defaulted.isEmpty());
  }

  @Override public void register(RelOptPlanner planner) {
    ShardRules.register(planner);
    planner.addRule(ShardRules.MODIFY);
    planner.addRule(ShardRules.MODIFY_PUSH);
  }
}
