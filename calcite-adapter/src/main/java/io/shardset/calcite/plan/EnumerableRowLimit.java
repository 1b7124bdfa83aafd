package io.shardset.calcite.plan;

import io.shardset.calcite.runtime.RowLimits;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * Calcite's {@link EnumerableLimit}, except that a {@code LIMIT ?} or {@code OFFSET ?} value
 * may be of any integral type (Calcite casts it to Integer, and a Long from {@code setLong}
 * fails) and a negative or fractional one is refused with a message naming the clause.
 */
public final class EnumerableRowLimit extends EnumerableLimit {
  private EnumerableRowLimit(RelOptCluster cluster, RelTraitSet traitSet, RelNode input,
      @Nullable RexNode offset, @Nullable RexNode fetch) {
    super(cluster, traitSet, input, offset, fetch);
  }

  /** Creates a limit with the traits Calcite's own would have. */
  public static EnumerableRowLimit create(RelNode input, @Nullable RexNode offset,
      @Nullable RexNode fetch) {
    final EnumerableLimit limit = EnumerableLimit.create(input, offset, fetch);
    return new EnumerableRowLimit(limit.getCluster(), limit.getTraitSet(), input, offset,
        fetch);
  }

  @Override public EnumerableRowLimit copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableRowLimit(getCluster(), traitSet, sole(inputs), offset, fetch);
  }

  /** Explains itself as the limit it stands for. */
  @Override public String getRelTypeName() {
    return EnumerableLimit.class.getSimpleName();
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final BlockBuilder builder = new BlockBuilder();
    final Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    final PhysType physType =
        PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), result.format);
    Expression rows = builder.append("child", result.block);
    if (offset != null) {
      rows = builder.append("offset",
          Expressions.call(rows, BuiltInMethod.SKIP.method, count(offset, "OFFSET")));
    }
    if (fetch != null) {
      rows = builder.append("fetch",
          Expressions.call(rows, BuiltInMethod.TAKE.method, count(fetch, "LIMIT")));
    }
    builder.add(Expressions.return_(null, rows));
    return implementor.result(physType, builder.toBlock());
  }

  private static Expression count(RexNode node, String clause) {
    if (node instanceof RexDynamicParam param) {
      final Expression value = Expressions.call(DataContext.ROOT,
          BuiltInMethod.DATA_CONTEXT_GET.method, Expressions.constant("?" + param.getIndex()));
      return Expressions.call(RowLimits.class, "of", value, Expressions.constant(clause));
    }
    return Expressions.constant(RexLiteral.intValue(node));
  }
}
