package io.shardset.calcite.jdbc;

import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.remote.TypedValue;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.JDBCType;
import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Parameter values for parameters of an integer type that are assigned to a column
 * ({@link AssignedParameters}), as the databases take them: a fraction
 * rounded half away from zero as {@code prepare.RoundingCasts} rounds a literal
 * ({@code setBigDecimal(4.7)} for an INTEGER column stores 5, as PostgreSQL, MariaDB and H2
 * store it, where Calcite's conversion would truncate it to 4), and a value the type cannot
 * hold refused with 22003, where Calcite's conversion would wrap it around
 * ({@code setLong(2147483648)} for an INTEGER would store -2147483648). A parameter that is
 * compared keeps its value: {@code K = ?} with 42.5 matches no row, as in the databases.
 */
final class IntegerParameters {
  /** Stands for "every parameter is assigned" when the statement's text does not say. */
  private static final Set<Integer> ALL = Set.of(-1);

  private IntegerParameters() {
  }

  /**
   * The values, those of integer parameters rounded; the list itself if none changes (and,
   * without an integer parameter, at once: a batch calls this for each of its rows).
   *
   * @param parameters the statement's parameters, whose JDBC types say which are integers
   * @param assigned the indexes of the parameters assigned to columns, asked for only when a
   *     value is a fraction or out of range; null when not known, taken as all
   * @throws SQLException (22003) for a value its parameter's type cannot hold
   */
  static List<TypedValue> rounded(List<TypedValue> values,
      @Nullable ParameterMetaData parameters, Supplier<@Nullable Set<Integer>> assigned)
      throws SQLException {
    if (parameters == null) {
      return values;
    }
    List<TypedValue> rounded = values;
    @Nullable Set<Integer> assignments = null;
    final int count = Math.min(values.size(), parameters.getParameterCount());
    for (int i = 0; i < count; i++) {
      final int type = parameters.getParameterType(i + 1);
      final TypedValue value = values.get(i);
      if (value == null || !isInteger(type)) {
        continue;
      }
      final boolean fits = fits(type, value.value);
      final BigDecimal fraction = fraction(value.value);
      if (fits && fraction == null) {
        continue;
      }
      if (assignments == null) {
        final Set<Integer> known = assigned.get();
        assignments = known == null ? ALL : known;
      }
      if (assignments != ALL && !assignments.contains(i)) {
        continue; // compared: the shards compare the value as it is
      }
      if (!fits) {
        final BigDecimal number = number(value.value);
        throw new SQLException("parameter " + (i + 1) + ": value "
            + (number == null ? value.value : number.toPlainString()) + " is out of range for "
            + JDBCType.valueOf(type).getName(), "22003");
      }
      if (fraction == null) {
        continue;
      }
      if (rounded == values) {
        rounded = new ArrayList<>(values);
      }
      rounded.set(i, TypedValue.ofLocal(ColumnMetaData.Rep.NUMBER,
          fraction.setScale(0, RoundingMode.HALF_UP)));
    }
    return rounded;
  }

  /** Whether the integer type holds the number once rounded. */
  private static boolean fits(int type, @Nullable Object value) {
    final long max = switch (type) {
    case Types.TINYINT -> Byte.MAX_VALUE;
    case Types.SMALLINT -> Short.MAX_VALUE;
    case Types.INTEGER -> Integer.MAX_VALUE;
    default -> Long.MAX_VALUE;
    };
    if (isWholeNumber(value)) {
      final long whole = ((Number) value).longValue();
      return whole <= max && whole >= -max - 1;
    }
    final BigDecimal number = number(value);
    if (number == null) {
      return true;
    }
    final BigDecimal whole = number.setScale(0, RoundingMode.HALF_UP);
    return whole.compareTo(BigDecimal.valueOf(max)) <= 0
        && whole.compareTo(BigDecimal.valueOf(-max - 1)) >= 0;
  }

  /** The value as a BigDecimal when it is a decimal or a finite floating-point number. */
  private static @Nullable BigDecimal number(@Nullable Object value) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (isWholeNumber(value)) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if ((value instanceof Double || value instanceof Float)
        && Double.isFinite(((Number) value).doubleValue())) {
      return BigDecimal.valueOf(((Number) value).doubleValue());
    }
    return null;
  }

  private static boolean isInteger(int type) {
    return type == Types.TINYINT || type == Types.SMALLINT || type == Types.INTEGER
        || type == Types.BIGINT;
  }

  /** Whether the value is a Java integer (a Long, Integer, Short or Byte). */
  private static boolean isWholeNumber(@Nullable Object value) {
    return value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte;
  }

  /** The value as a BigDecimal when it is a number with a fraction; else null (and no
   * BigDecimal made for a Java integer: a batch asks for each of its rows). */
  private static @Nullable BigDecimal fraction(@Nullable Object value) {
    if (isWholeNumber(value)) {
      return null;
    }
    final BigDecimal number = number(value);
    return number != null && number.stripTrailingZeros().scale() > 0 ? number : null;
  }
}
