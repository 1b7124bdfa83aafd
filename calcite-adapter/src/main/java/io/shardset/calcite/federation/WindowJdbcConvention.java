package io.shardset.calcite.federation;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.sql.SqlDialect;

/** Calcite's JDBC convention, whose rules also send window functions ({@link JdbcWindowRule}). */
final class WindowJdbcConvention extends JdbcConvention {
  WindowJdbcConvention(SqlDialect dialect, Expression expression, String name) {
    super(dialect, expression, name);
  }

  @Override public void register(RelOptPlanner planner) {
    super.register(planner);
    planner.addRule(JdbcWindowRule.create(this));
  }
}
