package io.shardset.calcite.runtime;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The value of a {@code LIMIT ?} or {@code OFFSET ?} parameter as a row count.
 *
 * <p>Calcite passes a parameter on as the client's setter made it: {@code setLong}, which
 * jOOQ and others use, gives a Long where Calcite's own limit expects an Integer.
 */
public final class RowLimits {
  private RowLimits() {
  }

  /**
   * The row count a parameter value stands for.
   *
   * @param value the value the client bound: any integral number, or a number with no
   *     fraction
   * @param clause {@code LIMIT} or {@code OFFSET}, for the message
   * @throws IllegalArgumentException if the value is not a whole number from 0 to
   *     {@link Integer#MAX_VALUE}
   */
  public static int of(@Nullable Object value, String clause) {
    final BigDecimal number = decimal(value);
    if (number == null || number.signum() < 0
        || number.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0
        || number.stripTrailingZeros().scale() > 0) {
      throw new IllegalArgumentException(clause + " must be a whole number from 0 to "
          + Integer.MAX_VALUE + ", got " + (value == null ? "NULL" : value));
    }
    return number.intValue();
  }

  private static @Nullable BigDecimal decimal(@Nullable Object value) {
    if (value instanceof BigDecimal d) {
      return d;
    } else if (value instanceof BigInteger i) {
      return new BigDecimal(i);
    } else if (value instanceof Byte || value instanceof Short || value instanceof Integer
        || value instanceof Long) {
      return BigDecimal.valueOf(((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      final double d = ((Number) value).doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }
    return null;
  }
}
