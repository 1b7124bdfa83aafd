package io.shardset.calcite.prepare;

import io.shardset.calcite.runtime.ShardQuery;

import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.Enumerable;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;

/**
 * A query with a locking clause ({@link LockingClause}), run as the plan of the query without
 * it whose scans are told, through their data context ({@link ShardQuery#LOCK_ROWS}), to lock
 * every row they read.
 */
final class LockingSignature<T> extends CalciteSignature<T> {
  private final CalciteSignature<T> plan;

  LockingSignature(String sql, CalciteSignature<T> plan) {
    super(sql, plan.parameters, plan.internalParameters, plan.rowType, plan.columns,
        plan.cursorFactory, plan.rootSchema, plan.getCollationList(), -1, null,
        plan.statementType);
    this.plan = Objects.requireNonNull(plan, "plan");
  }

  @Override public Enumerable<T> enumerable(DataContext dataContext) {
    return plan.enumerable(new Locking(dataContext));
  }

  /** The statement's data context, which says its reads lock their rows. */
  private static final class Locking extends ForwardingDataContext {
    Locking(DataContext delegate) {
      super(delegate);
    }

    @Override public @Nullable Object get(String name) {
      return ShardQuery.LOCK_ROWS.equals(name) ? Boolean.TRUE : super.get(name);
    }
  }
}
