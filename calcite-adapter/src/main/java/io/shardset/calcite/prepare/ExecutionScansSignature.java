package io.shardset.calcite.prepare;

import io.shardset.calcite.runtime.ExecutionScans;

import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;

/**
 * A plan whose every execution gets an {@link ExecutionScans} in its data context, closed
 * with the execution's rows: the scans it started early and never read close then, not when
 * the statement closes.
 */
final class ExecutionScansSignature<T> extends CalciteSignature<T> {
  private final CalciteSignature<T> plan;

  private ExecutionScansSignature(CalciteSignature<T> plan) {
    // The plan applies its own maximum row count: -1 here.
    super(plan.sql, plan.parameters, plan.internalParameters, plan.rowType, plan.columns,
        plan.cursorFactory, plan.rootSchema, plan.getCollationList(), -1, null,
        plan.statementType);
    this.plan = plan;
  }

  /** The plan, its executions closing their unread early scans. */
  static <T> CalciteSignature<T> of(CalciteSignature<T> plan) {
    Objects.requireNonNull(plan, "plan");
    return plan instanceof ExecutionScansSignature ? plan : new ExecutionScansSignature<>(plan);
  }

  @Override public Enumerable<T> enumerable(DataContext dataContext) {
    final ExecutionScans scans = new ExecutionScans();
    final Enumerable<T> rows;
    try {
      rows = plan.enumerable(new WithScans(dataContext, scans));
    } catch (RuntimeException | Error e) {
      scans.close();
      throw e;
    }
    return new AbstractEnumerable<T>() {
      @Override public Enumerator<T> enumerator() {
        final Enumerator<T> enumerator;
        try {
          enumerator = rows.enumerator();
        } catch (RuntimeException | Error e) {
          scans.close();
          throw e;
        }
        return new Enumerator<T>() {
          @Override public T current() {
            return enumerator.current();
          }

          @Override public boolean moveNext() {
            return enumerator.moveNext();
          }

          @Override public void reset() {
            enumerator.reset();
          }

          @Override public void close() {
            try {
              enumerator.close();
            } finally {
              scans.close();
            }
          }
        };
      }
    };
  }

  /** The execution's data context, which holds its early scans. */
  private static final class WithScans extends ForwardingDataContext {
    private final ExecutionScans scans;

    WithScans(DataContext delegate, ExecutionScans scans) {
      super(delegate);
      this.scans = scans;
    }

    @Override public @Nullable Object get(String name) {
      return ExecutionScans.NAME.equals(name) ? scans : super.get(name);
    }
  }
}
