package io.shardset.calcite.prepare;

import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.Enumerable;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * A statement's view of a shared, parameterized plan: the statement's own text and no
 * parameters to the client, and at execution the plan's {@code ?N} answered by the literals
 * taken from this statement's text.
 */
final class BoundSignature<T> extends CalciteSignature<T> {
  private final CalciteSignature<T> shared;
  private final @Nullable Object[] values;

  BoundSignature(String sql, CalciteSignature<T> shared, @Nullable Object[] values) {
    super(sql, List.of(), shared.internalParameters, shared.rowType, shared.columns,
        shared.cursorFactory, shared.rootSchema, shared.getCollationList(), -1, null,
        shared.statementType);
    this.shared = Objects.requireNonNull(shared, "shared");
    this.values = values.clone();
  }

  @Override public Enumerable<T> enumerable(DataContext dataContext) {
    return shared.enumerable(new LiteralDataContext(dataContext, values));
  }

  /** Data context whose {@code ?N} are the statement's literals. */
  private static final class LiteralDataContext extends ForwardingDataContext {
    private final @Nullable Object[] values;

    LiteralDataContext(DataContext delegate, @Nullable Object[] values) {
      super(delegate);
      this.values = values;
    }

    @Override public @Nullable Object get(String name) {
      if (name.startsWith("?")) {
        try {
          final int i = Integer.parseInt(name.substring(1));
          if (i >= 0 && i < values.length) {
            return values[i];
          }
        } catch (NumberFormatException e) {
          // Not a parameter name; the delegate answers.
        }
      }
      return super.get(name);
    }
  }
}
