package io.shardset.calcite.prepare;

import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A plan that fails every run the same way when a static initialiser of its generated code
 * failed. Calcite puts the constants it reduces ({@code 1/0}, say) in static fields of the
 * generated classes, so evaluating one that fails makes the class unusable: its first run
 * gets an {@link ExceptionInInitializerError} that says why, and every later run, of the
 * cached plan or of a prepared statement holding it, a {@link NoClassDefFoundError}
 * ("Could not initialize class Baz$1$1") that does not. This signature keeps the first
 * failure and raises it again in place of the later ones, so that every run fails with the
 * same state and reason ({@link io.shardset.calcite.jdbc.ClientErrors}).
 */
final class InitFailureSignature<T> extends CalciteSignature<T> {
  private final CalciteSignature<T> plan;
  private final AtomicReference<@Nullable ExceptionInInitializerError> failure =
      new AtomicReference<>();

  private InitFailureSignature(CalciteSignature<T> plan) {
    // The plan applies its own maximum row count: -1 here.
    super(plan.sql, plan.parameters, plan.internalParameters, plan.rowType, plan.columns,
        plan.cursorFactory, plan.rootSchema, plan.getCollationList(), -1, null,
        plan.statementType);
    this.plan = plan;
  }

  /** The plan, keeping the failure of its generated code's initialisers. */
  static <T> CalciteSignature<T> of(CalciteSignature<T> plan) {
    Objects.requireNonNull(plan, "plan");
    return plan instanceof InitFailureSignature ? plan : new InitFailureSignature<>(plan);
  }

  @Override public Enumerable<T> enumerable(DataContext dataContext) {
    final Enumerable<T> rows;
    try {
      rows = plan.enumerable(dataContext);
    } catch (LinkageError e) {
      throw remembered(e);
    }
    return new AbstractEnumerable<T>() {
      @Override public Enumerator<T> enumerator() {
        try {
          return new KeepingEnumerator(rows.enumerator());
        } catch (LinkageError e) {
          throw remembered(e);
        }
      }
    };
  }

  /**
   * What to throw for {@code e}: the first initialiser failure, kept, for a class that failed
   * to initialise before, and {@code e} itself otherwise.
   */
  private LinkageError remembered(LinkageError e) {
    if (e instanceof ExceptionInInitializerError initialiser) {
      failure.compareAndSet(null, initialiser);
      return e;
    }
    final ExceptionInInitializerError first = failure.get();
    if (!(e instanceof NoClassDefFoundError) || first == null) {
      return e;
    }
    // A new error with the same cause, for each run's own suppressed exceptions.
    final ExceptionInInitializerError again =
        new ExceptionInInitializerError(first.getException());
    again.addSuppressed(e);
    return again;
  }

  /** The rows of one run; inner classes of the generated code initialise as rows are read
   * (the enumerator of a join's inner side, say). */
  private final class KeepingEnumerator implements Enumerator<T> {
    private final Enumerator<T> rows;

    KeepingEnumerator(Enumerator<T> rows) {
      this.rows = rows;
    }

    @Override public T current() {
      try {
        return rows.current();
      } catch (LinkageError e) {
        throw remembered(e);
      }
    }

    @Override public boolean moveNext() {
      try {
        return rows.moveNext();
      } catch (LinkageError e) {
        throw remembered(e);
      }
    }

    @Override public void reset() {
      rows.reset();
    }

    @Override public void close() {
      rows.close();
    }
  }
}
