package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's {@link EnumerableSort}, except that the rows are sorted within the statement's
 * sort memory and spill to temporary files beyond it ({@link SortMemory}): a sort above the
 * shards of a million wide rows (the inputs of a merge join, say) never runs the JVM out of
 * memory. Its cost is a hair below Calcite's sort, so that the planner takes it wherever
 * that would sort.
 */
public final class EnumerableSpillingSort extends EnumerableSort {
  private EnumerableSpillingSort(RelOptCluster cluster, RelTraitSet traitSet, RelNode input,
      RelCollation collation) {
    super(cluster, traitSet, input, collation, null, null);
  }

  /** A spilling sort of {@code input}, with the traits Calcite's own sort would have. */
  public static EnumerableSpillingSort create(RelNode input, RelCollation collation) {
    final EnumerableSort sort = EnumerableSort.create(input, collation, null, null);
    return new EnumerableSpillingSort(sort.getCluster(), sort.getTraitSet(), input, collation);
  }

  @Override public EnumerableSpillingSort copy(RelTraitSet traitSet, RelNode newInput,
      RelCollation newCollation, @Nullable RexNode offset, @Nullable RexNode fetch) {
    return new EnumerableSpillingSort(getCluster(), traitSet, newInput, newCollation);
  }

  /** Explains itself as the sort it stands for. */
  @Override public String getRelTypeName() {
    return EnumerableSort.class.getSimpleName();
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner,
      RelMetadataQuery mq) {
    return SpillingCost.below(super.computeSelfCost(planner, mq));
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final BlockBuilder builder = new BlockBuilder();
    final Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    final PhysType physType =
        PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), result.format);
    final Expression child = builder.append("child", result.block);
    final Expression comparator = builder.append("comparator",
        result.physType.generateComparator(collation));
    builder.add(Expressions.return_(null, Expressions.call(SortMemory.class, "sort", child,
        comparator, implementor.getRootExpression())));
    return implementor.result(physType, builder.toBlock());
  }
}
