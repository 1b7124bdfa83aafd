package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;

/**
 * Base of the logical and the executable shard scan: both are a leaf whose meaning is all in
 * its {@link ShardScanSpec}.
 */
public abstract class AbstractShardScan extends AbstractRelNode {
  protected final ShardScanSpec spec;

  AbstractShardScan(RelOptCluster cluster, RelTraitSet traitSet, ShardScanSpec spec) {
    super(cluster, traitSet);
    this.spec = Objects.requireNonNull(spec, "spec");
  }

  /** What this scan reads and pushes. */
  public ShardScanSpec spec() {
    return spec;
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
}
