package io.shardset.calcite.prepare;

import org.apache.calcite.avatica.AvaticaParameter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.sql.Types;
import java.util.List;

/**
 * Converts literal values to the Java values a plan's parameters take, exactly or not at all.
 */
final class LiteralValues {
  private LiteralValues() {
  }

  /**
   * The values as the parameters' local Java values (what {@code TypedValue.toLocal} gives for
   * a bound parameter), or null if the counts differ or some value does not fit its
   * parameter's type exactly.
   */
  static @Nullable Object @Nullable [] convert(List<Object> values,
      List<AvaticaParameter> parameters) {
    if (values.size() != parameters.size()) {
      return null;
    }
    final @Nullable Object[] converted = new Object[values.size()];
    for (int i = 0; i < values.size(); i++) {
      final Object c = convert(values.get(i), parameters.get(i));
      if (c == null) {
        return null;
      }
      converted[i] = c;
    }
    return converted;
  }

  private static @Nullable Object convert(Object value, AvaticaParameter parameter) {
    final int sqlType = parameter.parameterType;
    try {
      if (value instanceof BigDecimal d) {
        switch (sqlType) {
        case Types.BIGINT:
          return d.longValueExact();
        case Types.INTEGER:
          return d.intValueExact();
        case Types.SMALLINT:
          return d.shortValueExact();
        case Types.TINYINT:
          return d.byteValueExact();
        case Types.DECIMAL:
        case Types.NUMERIC:
          // A value with more integer digits than the column's type would overflow there.
          return d.precision() - d.scale() <= parameter.precision - parameter.scale ? d : null;
        default:
          return null;
        }
      }
      if (value instanceof String s) {
        // A literal longer than a VARCHAR column, or not exactly as long as a CHAR column,
        // compares with padding or truncation rules a parameter need not share.
        final boolean fits = sqlType == Types.VARCHAR ? s.length() <= parameter.precision
            : sqlType == Types.CHAR && s.length() == parameter.precision;
        return fits ? s : null;
      }
      return null;
    } catch (ArithmeticException e) {
      return null;
    }
  }
}
