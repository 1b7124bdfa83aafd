package io.shardset.calcite.federation;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcImplementor;
import org.apache.calcite.adapter.jdbc.JdbcRel;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * Window functions in a JDBC convention: sent to the database in the SELECT list that Calcite's
 * SQL writer makes of a window ({@code RelToSqlConverter.visit(Window)}), which Calcite's JDBC
 * adapter has no node for.
 */
public final class JdbcWindow extends Window implements JdbcRel {
  JdbcWindow(RelOptCluster cluster, RelTraitSet traitSet, RelNode input,
      List<RexLiteral> constants, RelDataType rowType, List<Group> groups) {
    super(cluster, traitSet, input, constants, rowType, groups);
  }

  @Override public Window copy(List<RexLiteral> constants) {
    return new JdbcWindow(getCluster(), traitSet, input, constants, getRowType(), groups);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new JdbcWindow(getCluster(), traitSet, sole(inputs), constants, getRowType(),
        groups);
  }

  /** Cheaper than the same window computed above the database, as Calcite's JDBC projections
   * are. */
  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner,
      RelMetadataQuery mq) {
    final RelOptCost cost = super.computeSelfCost(planner, mq);
    return cost == null ? null : cost.multiplyBy(JdbcConvention.COST_MULTIPLIER);
  }

  @Override public JdbcImplementor.Result implement(JdbcImplementor implementor) {
    return implementor.implement(this);
  }
}
