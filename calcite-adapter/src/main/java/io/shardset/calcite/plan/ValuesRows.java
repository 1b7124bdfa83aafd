package io.shardset.calcite.plan;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The rows of a {@code VALUES} as Calcite's generated code would make them (a DATE as days
 * since the epoch, a TIMESTAMP as milliseconds, a DECIMAL as BigDecimal, ...), made once when
 * a write is planned, so that an {@code INSERT ... VALUES} of thousands of rows does not
 * become generated code (which Java caps at 64 KB a method, some three thousand rows).
 */
final class ValuesRows {
  private ValuesRows() {
  }

  static List<Object[]> of(Values values, JavaTypeFactory typeFactory) {
    final List<RelDataTypeField> fields = values.getRowType().getFieldList();
    final List<Object[]> rows = new ArrayList<>(values.getTuples().size());
    for (List<RexLiteral> tuple : values.getTuples()) {
      final Object[] row = new Object[tuple.size()];
      for (int i = 0; i < row.length; i++) {
        row[i] = value(tuple.get(i), typeFactory.getJavaClass(fields.get(i).getType()));
      }
      rows.add(row);
    }
    return rows;
  }

  /** A literal's value as Calcite's RexToLixTranslator writes it into generated code. */
  private static @Nullable Object value(RexLiteral literal, Type javaClass) {
    if (literal.isNull()) {
      return null;
    }
    switch (literal.getType().getSqlTypeName()) {
    case DECIMAL:
      final BigDecimal decimal = literal.getValueAs(BigDecimal.class);
      if (decimal != null && (javaClass == float.class || javaClass == Float.class)) {
        return decimal.floatValue();
      }
      if (decimal != null && (javaClass == double.class || javaClass == Double.class)) {
        return decimal.doubleValue();
      }
      return decimal;
    case DATE:
    case TIME:
    case TIME_TZ:
    case TIME_WITH_LOCAL_TIME_ZONE:
    case INTERVAL_YEAR:
    case INTERVAL_YEAR_MONTH:
    case INTERVAL_MONTH:
      return literal.getValueAs(Integer.class);
    case TIMESTAMP:
    case TIMESTAMP_TZ:
    case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
    case INTERVAL_DAY:
    case INTERVAL_DAY_HOUR:
    case INTERVAL_DAY_MINUTE:
    case INTERVAL_DAY_SECOND:
    case INTERVAL_HOUR:
    case INTERVAL_HOUR_MINUTE:
    case INTERVAL_HOUR_SECOND:
    case INTERVAL_MINUTE:
    case INTERVAL_MINUTE_SECOND:
    case INTERVAL_SECOND:
      return literal.getValueAs(Long.class);
    case CHAR:
    case VARCHAR:
      return literal.getValueAs(String.class);
    case UUID:
      return UUID.fromString(literal.getValueAs(String.class));
    case BINARY:
    case VARBINARY:
      return new ByteString(literal.getValueAs(byte[].class));
    default:
      final Primitive primitive = Primitive.ofBoxOr(javaClass);
      final Comparable<?> value = literal.getValueAs(Comparable.class);
      return primitive != null && value instanceof Number number
          ? primitive.number(number) : value;
    }
  }
}
