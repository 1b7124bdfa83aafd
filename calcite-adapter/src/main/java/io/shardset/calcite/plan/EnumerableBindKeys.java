package io.shardset.calcite.plan;

import io.shardset.calcite.runtime.BindJoinKeys;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import java.util.List;

/**
 * The small side of a bind join (see {@link BindJoins}): passes its input's rows on, reading
 * them once per execution, and hands their join keys to the shard scan on the join's other
 * side ({@link BindJoinKeys}).
 */
public final class EnumerableBindKeys extends SingleRel implements EnumerableRel {
  private final BindJoinKeys keys;
  private final int key;

  private EnumerableBindKeys(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      BindJoinKeys keys, int key) {
    super(cluster, traits, input);
    this.keys = keys;
    this.key = key;
  }

  /** Hands the {@code key}th column of {@code input}'s rows to {@code keys}. */
  static EnumerableBindKeys create(RelNode input, BindJoinKeys keys, int key) {
    return new EnumerableBindKeys(input.getCluster(), input.getTraitSet(), input, keys, key);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableBindKeys(getCluster(), traitSet, sole(inputs), keys, key);
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return mq.getRowCount(getInput());
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("key", getInput().getRowType().getFieldNames().get(key))
        .item("maxKeys", keys.maxKeys());
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    final BlockBuilder builder = new BlockBuilder();
    final Expression rows = builder.append("bindSide", input.block);
    builder.add(
        Expressions.return_(null,
            Expressions.call(implementor.stash(keys, BindJoinKeys.class), BindJoinKeys.COLLECT,
                implementor.getRootExpression(), rows,
                input.physType.generateAccessor(List.of(key)))));
    return implementor.result(input.physType, builder.toBlock());
  }
}
