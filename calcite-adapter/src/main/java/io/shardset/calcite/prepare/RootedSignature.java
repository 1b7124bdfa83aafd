package io.shardset.calcite.prepare;

import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.Enumerable;

import java.util.Objects;

/**
 * A cached plan as one connection runs it: Calcite builds an execution's data context on the
 * root schema of the signature it runs ({@code CalciteConnectionImpl.enumerable}), so a plan
 * made on another connection of the process is handed out with this connection's root, and
 * its generated code finds this connection's schemas.
 */
final class RootedSignature<T> extends CalciteSignature<T> {
  private final CalciteSignature<T> plan;

  /** The plan's own row limit applies in its {@code enumerable}: none is set here. */
  private RootedSignature(CalciteSignature<T> plan, CalciteSchema root) {
    super(plan.sql, plan.parameters, plan.internalParameters, plan.rowType, plan.columns,
        plan.cursorFactory, root, plan.getCollationList(), -1, null,
        plan.statementType);
    this.plan = plan;
  }

  /** The plan with {@code root} as the root schema of its executions. */
  @SuppressWarnings("unchecked")
  static <T> CalciteSignature<T> of(CalciteSignature<T> plan, CalciteSchema root) {
    Objects.requireNonNull(root, "root");
    final CalciteSignature<T> made = plan instanceof RootedSignature<T> rooted
        ? rooted.plan : plan;
    return plan.rootSchema == root ? plan : new RootedSignature<>(made, root);
  }

  @Override public Enumerable<T> enumerable(DataContext dataContext) {
    return plan.enumerable(dataContext);
  }
}
