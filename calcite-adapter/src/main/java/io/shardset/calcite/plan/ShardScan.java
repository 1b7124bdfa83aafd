package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.routing.KeyCondition;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableScan;


import java.util.List;

/**
 * Logical relational expression that reads one sharded table: a single node, whatever the
 * number of shards, carrying the work pushed into every shard and the shards it can reach.
 *
 * <p>It is in {@link Convention#NONE} so that logical operators above it keep matching it
 * after each push (a physical-convention scan absorbs only one operator), and it extends
 * {@link AbstractRelNode} rather than {@code TableScan} because, once a Project is pushed,
 * its output columns are no longer the table's columns.
 */
public final class ShardScan extends AbstractShardScan {
  private ShardScan(RelOptCluster cluster, RelTraitSet traitSet, ShardScanSpec spec) {
    super(cluster, traitSet, spec);
  }

  /** Creates a scan of the whole table, nothing pushed yet. */
  public static ShardScan create(RelOptCluster cluster, RelOptTable relOptTable,
      ShardTable table, ScanHints hints) {
    final RelNode leaf = LogicalTableScan.create(cluster, relOptTable, List.of());
    return create(cluster,
        new ShardScanSpec(table, relOptTable, leaf, KeyCondition.any(), Phase.ROWS, hints));
  }

  /** Creates a scan of the given pushed work; its rows come in the pushed sort order. */
  static ShardScan create(RelOptCluster cluster, ShardScanSpec spec) {
    return new ShardScan(cluster,
        cluster.traitSetOf(Convention.NONE).replace(spec.collation()), spec);
  }

  @Override public void register(RelOptPlanner planner) {
    ShardRules.register(planner);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    assert inputs.isEmpty();
    return new ShardScan(getCluster(), traitSet, spec);
  }
}
