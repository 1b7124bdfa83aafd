package io.shardset.calcite.plan;

import io.shardset.calcite.runtime.ShardEnumerables;
import io.shardset.calcite.runtime.ShardQuery;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * Executable twin of {@link ShardScan}: sends the pushed SQL to the target shards in parallel
 * and streams the merged rows.
 *
 * <p>Code generation only stashes one immutable {@link ShardQuery} and calls
 * {@link ShardEnumerables#execute}; everything else is plain Java.
 */
public final class EnumerableShardScan extends AbstractRelNode implements EnumerableRel {
  private final ShardScanSpec spec;

  private EnumerableShardScan(RelOptCluster cluster, RelTraitSet traitSet,
      ShardScanSpec spec) {
    super(cluster, traitSet);
    this.spec = Objects.requireNonNull(spec, "spec");
  }

  static EnumerableShardScan create(RelOptCluster cluster, RelTraitSet traitSet,
      ShardScanSpec spec) {
    return new EnumerableShardScan(cluster, traitSet, spec);
  }

  /** What this scan reads and pushes. */
  public ShardScanSpec spec() {
    return spec;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    assert inputs.isEmpty();
    return new EnumerableShardScan(getCluster(), traitSet, spec);
  }

  @Override protected RelDataType deriveRowType() {
    return spec.pushed().getRowType();
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return spec.estimateRowCount(mq);
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner,
      RelMetadataQuery mq) {
    return spec.cost(planner, mq);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return spec.explain(super.explainTerms(pw));
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // Rows are Object[] even with one column: the runtime produces one shape for all scans.
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    final Expression query = implementor.stash(ShardQueryFactory.create(spec),
        ShardQuery.class);
    return implementor.result(physType,
        Blocks.toBlock(
            Expressions.call(ShardEnumerables.EXECUTE, implementor.getRootExpression(),
                query)));
  }
}
