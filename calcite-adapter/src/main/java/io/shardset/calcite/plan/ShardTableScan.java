package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.hint.RelHint;

import java.util.List;
import java.util.Objects;

/**
 * Relational expression a sharded table first becomes: a plain logical scan of the whole
 * table, which {@link ShardRules#TABLE_SCAN} turns into a {@link ShardScan}.
 *
 * <p>It exists so that everything Calcite does before cost-based planning treats the table
 * as the table it is: the field trimmer, in particular, knows how to narrow a
 * {@link TableScan} to the columns a query reads (a Project above it, which is then pushed
 * into the shards), but leaves an unknown node, such as a {@link ShardScan}, untouched.
 */
public final class ShardTableScan extends TableScan {
  private final ShardTable shardTable;
  private final ScanHints scanHints;

  private ShardTableScan(RelOptCluster cluster, RelTraitSet traitSet, RelOptTable table,
      ShardTable shardTable, List<RelHint> hints) {
    super(cluster, traitSet, hints, table);
    this.shardTable = Objects.requireNonNull(shardTable, "shardTable");
    // Resolved here, while the statement is converted: a hint naming no shard of the model
    // fails it with its own message; inside the planner it would be wrapped in the planner's.
    this.scanHints = ScanHints.of(hints, shardTable);
  }

  /** Creates a scan of a sharded table with the hints written after its name. */
  public static ShardTableScan create(RelOptCluster cluster, RelOptTable table,
      ShardTable shardTable, List<RelHint> hints) {
    // Before the statement's program is chosen: jdbc:calcite: connections find it hooked in.
    ShardPrograms.installInCalcite();
    return new ShardTableScan(cluster, cluster.traitSetOf(Convention.NONE), table,
        shardTable, hints);
  }

  /** The sharded table this scan reads. */
  public ShardTable shardTable() {
    return shardTable;
  }

  /** What the scan's hints say. */
  public ScanHints scanHints() {
    return scanHints;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    assert inputs.isEmpty();
    return new ShardTableScan(getCluster(), traitSet, table, shardTable, getHints());
  }

  /** Takes the hints of the query block, which Calcite hands down after conversion. */
  @Override public RelNode withHints(List<RelHint> hintList) {
    return new ShardTableScan(getCluster(), traitSet, table, shardTable, hintList);
  }

  /** Scans of one table with other hints are other scans. */
  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).itemIf("hints", scanHints.describe(),
        !getHints().isEmpty());
  }

  @Override public void register(RelOptPlanner planner) {
    ShardRules.register(planner);
  }
}
