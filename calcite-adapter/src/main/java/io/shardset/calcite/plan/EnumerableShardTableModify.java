package io.shardset.calcite.plan;

import io.shardset.calcite.ConnectionTransactions;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.ShardWrites;
import io.shardset.calcite.runtime.WriteTarget;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Executable twin of {@link ShardTableModify}: its input's rows, as arrays, go to
 * {@link ShardWrites}, which places each on its shard and physical table and writes it in the
 * statement's transaction; the result is the row count.
 *
 * <p>Code generation only stashes one {@link WriteTarget} and the connections' transactions,
 * and calls {@link ShardWrites#write}; everything else is plain Java.
 */
public final class EnumerableShardTableModify extends TableModify implements EnumerableRel {
  private final ShardTable shardTable;

  private EnumerableShardTableModify(RelOptCluster cluster, RelTraitSet traitSet,
      RelOptTable table, Prepare.CatalogReader catalogReader, RelNode input,
      Operation operation, @Nullable List<String> updateColumnList,
      @Nullable List<RexNode> sourceExpressionList, boolean flattened,
      ShardTable shardTable) {
    super(cluster, traitSet, table, catalogReader, input, operation, updateColumnList,
        sourceExpressionList, flattened);
    this.shardTable = shardTable;
  }

  static EnumerableShardTableModify create(ShardTableModify modify, RelNode input) {
    return new EnumerableShardTableModify(modify.getCluster(),
        modify.getTraitSet().replace(EnumerableConvention.INSTANCE), modify.getTable(),
        modify.getCatalogReader(), input, modify.getOperation(),
        modify.getUpdateColumnList(), modify.getSourceExpressionList(), modify.isFlattened(),
        modify.shardTable());
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableShardTableModify(getCluster(), traitSet, getTable(),
        getCatalogReader(), sole(inputs), getOperation(), getUpdateColumnList(),
        getSourceExpressionList(), isFlattened(), shardTable);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("shards", shardTable.shardCount())
        .itemIf("duplicated", true, shardTable.isDuplicated());
  }

  /** What the runtime needs to write: no planner object. */
  public WriteTarget target() {
    return WriteTarget.of(shardTable.sharded(), shardTable.coordinator(),
        ShardWrites.Operation.valueOf(getOperation().name()));
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final BlockBuilder builder = new BlockBuilder();
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(),
        Prefer.ARRAY);
    final Expression child = builder.append("child", input.block);
    final ParameterExpression row = Expressions.parameter(input.physType.getJavaRowType(),
        "row");
    final List<Expression> values = new ArrayList<>();
    for (int i = 0; i < input.physType.getRowType().getFieldCount(); i++) {
      final Expression value = input.physType.fieldReference(row, i);
      values.add(Primitive.is(value.getType()) ? Expressions.box(value) : value);
    }
    final Expression rows = builder.append("rows", Expressions.call(child,
        BuiltInMethod.SELECT.method, Expressions.lambda(Function1.class,
            Expressions.newArrayInit(Object.class, values), row)));
    final Expression target = implementor.stash(target(), WriteTarget.class);
    final Expression transactions = implementor.stash(
        ShardSetRuntime.get().transactions(), ConnectionTransactions.class);
    builder.add(Expressions.return_(null, Expressions.call(ShardWrites.WRITE,
        implementor.getRootExpression(), target, transactions, rows)));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.SCALAR);
    return implementor.result(physType, builder.toBlock());
  }
}
