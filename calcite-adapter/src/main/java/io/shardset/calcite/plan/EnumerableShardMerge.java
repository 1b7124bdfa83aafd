package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.MergeTarget;
import io.shardset.calcite.runtime.ShardMerges;
import io.shardset.write.UpsertForm;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Executable MERGE into a sharded table: its input's rows go to {@link ShardMerges}, as a
 * native upsert by primary key (input: the values to insert, then the new values) or row by
 * row (input: the source joined with the table); the result is the row count. EXPLAIN shows
 * which, with the native statements used or why the MERGE is row-wise.
 */
public final class EnumerableShardMerge extends TableModify implements EnumerableRel {
  /** Below Calcite's own EnumerableTableModify, which cannot write to a sharded table; a
   * native upsert below a row-wise MERGE of the same statement. */
  private static final double NATIVE_COST = 0.01;
  private static final double ROW_WISE_COST = 0.1;

  private final ShardTable shardTable;
  private final MergeShape shape;

  private EnumerableShardMerge(RelOptCluster cluster, RelTraitSet traitSet, RelOptTable table,
      Prepare.CatalogReader catalogReader, RelNode input,
      @Nullable List<String> updateColumnList, ShardTable shardTable, MergeShape shape) {
    super(cluster, traitSet, table, catalogReader, input, Operation.MERGE, updateColumnList,
        null, false);
    this.shardTable = shardTable;
    this.shape = shape;
  }

  static EnumerableShardMerge create(TableModify modify, RelNode input, ShardTable table,
      MergeShape shape) {
    return new EnumerableShardMerge(modify.getCluster(),
        modify.getTraitSet().replace(EnumerableConvention.INSTANCE), modify.getTable(),
        modify.getCatalogReader(), input, modify.getUpdateColumnList(), table, shape);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableShardMerge(getCluster(), traitSet, getTable(), getCatalogReader(),
        sole(inputs), getUpdateColumnList(), shardTable, shape);
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner,
      RelMetadataQuery mq) {
    final RelOptCost cost = super.computeSelfCost(planner, mq);
    return cost == null ? null
        : cost.multiplyBy(shape.upsert() != null ? NATIVE_COST : ROW_WISE_COST);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    final List<String> key = new ArrayList<>();
    final List<Integer> columns = shape.upsert() != null ? shape.upsert().keyColumns()
        : shape.rowWise().keyColumns();
    columns.forEach(c -> key.add(shardTable.layout().columnNames().get(c)));
    super.explainTerms(pw).item("shards", shardTable.shardCount()).item("key", key);
    if (shape.upsert() != null) {
      final Set<String> forms = new LinkedHashSet<>();
      shape.upsert().forms().stream().map(UpsertForm::description).forEach(forms::add);
      return pw.item("upsert", String.join("; ", forms));
    }
    return pw.item("rowWise", shape.reason());
  }

  /** What the runtime needs to merge: no planner object. */
  public MergeTarget target() {
    return new MergeTarget(shardTable.sharded(), shardTable.coordinator(), shape.upsert(),
        shape.rowWise());
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // What ShardSet computes fails where the shard's own statement would: every field of the
    // input is a value to write, or a row of the table as it is.
    final RelNode input = AssignedValues.checked(getInput(),
        IntStream.range(0, getInput().getRowType().getFieldCount()).boxed().toList());
    if (input != getInput()) {
      // Calcite's implementor checks that a child is its parent's input.
      return ((EnumerableShardMerge) copy(getTraitSet(), List.of(input)))
          .implement(implementor, pref);
    }
    return WriteCode.implement(this, (EnumerableRel) getInput(), implementor,
        ShardMerges.MERGE, target(), MergeTarget.class,
        shardTable.sessions());
  }
}
