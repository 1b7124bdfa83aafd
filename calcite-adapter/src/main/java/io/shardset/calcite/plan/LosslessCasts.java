package io.shardset.calcite.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Recognises casts that cannot change a value, such as INTEGER to BIGINT: Calcite adds them
 * when a key column is compared with a wider literal, and pruning may look through them.
 */
final class LosslessCasts {
  private LosslessCasts() {
  }

  static boolean isLossless(RelDataType from, RelDataType to) {
    final SqlTypeName f = from.getSqlTypeName();
    final SqlTypeName t = to.getSqlTypeName();
    if (f == t && (f == SqlTypeName.DATE || f == SqlTypeName.BOOLEAN
        || f == SqlTypeName.DOUBLE || f == SqlTypeName.TIMESTAMP
        && to.getPrecision() >= from.getPrecision())) {
      return true;
    }
    if (f == SqlTypeName.VARCHAR && t == SqlTypeName.VARCHAR) {
      // An unbounded VARCHAR holds anything; a bounded one only what is no longer.
      return unbounded(to) || !unbounded(from) && to.getPrecision() >= from.getPrecision();
    }
    final int fromDigits = integerDigits(from);
    final int toDigits = integerDigits(to);
    return fromDigits > 0 && toDigits > 0
        && toDigits >= fromDigits && scale(to) >= scale(from);
  }

  /** A VARCHAR without a declared length. */
  private static boolean unbounded(RelDataType type) {
    return type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
        || type.getPrecision() >= 65_536;
  }

  /** Digits before the decimal point an exact numeric type holds; 0 if not exact numeric. */
  private static int integerDigits(RelDataType type) {
    switch (type.getSqlTypeName()) {
    case TINYINT:
      return 3;
    case SMALLINT:
      return 5;
    case INTEGER:
      return 10;
    case BIGINT:
      return 19;
    case DECIMAL:
      return type.getPrecision() - type.getScale();
    default:
      return 0;
    }
  }

  private static int scale(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.DECIMAL ? type.getScale() : 0;
  }
}
