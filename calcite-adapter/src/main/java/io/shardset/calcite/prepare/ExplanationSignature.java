package io.shardset.calcite.prepare;

import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.runtime.Bindable;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The result of an {@code EXPLAIN} statement whose plan text is already known: one row with
 * that text, in the columns and row form of Calcite's own {@code EXPLAIN} result.
 */
final class ExplanationSignature {
  private ExplanationSignature() {
  }

  /**
   * Lines that say which value a shared plan's parameters take for one statement, one
   * {@code ?N = value} line each, the value as an SQL literal; empty for no values.
   */
  static String parameters(List<Object> values) {
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      final Object value = values.get(i);
      b.append('?').append(i).append(" = ")
          .append(value instanceof BigDecimal d ? d.toPlainString()
              : "'" + value.toString().replace("'", "''") + "'")
          .append('\n');
    }
    return b.toString();
  }

  /**
   * A signature that returns {@code explanation}.
   *
   * @param shape the signature Calcite made for some {@code EXPLAIN} statement, whose
   *     columns and row form are those of every {@code EXPLAIN}
   * @param sql the statement's text
   */
  @SuppressWarnings("unchecked")
  static <T> CalciteSignature<T> of(CalciteSignature<T> shape, String sql, String explanation) {
    final Bindable<T> rows = dataContext -> (Enumerable<T>)
        (shape.cursorFactory.style == Meta.Style.ARRAY
            ? Linq4j.singletonEnumerable(new String[] {explanation})
            : Linq4j.singletonEnumerable(explanation));
    return new CalciteSignature<>(sql, List.of(), Map.of(), shape.rowType, shape.columns,
        shape.cursorFactory, shape.rootSchema, List.of(), -1, rows, shape.statementType);
  }
}
