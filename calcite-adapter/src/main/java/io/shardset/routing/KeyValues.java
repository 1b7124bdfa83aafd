package io.shardset.routing;

import java.math.BigDecimal;

/** Comparison, canonical form and display of normalized key values. */
final class KeyValues {
  private KeyValues() {
  }

  /** The one representation of a number, so that 42, 42.0 and 4.2E+1 are equal values. */
  static BigDecimal canonicalNumber(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
  }

  /** The canonical form of a value of any key type; only numbers have several spellings. */
  static Comparable<?> canonical(Comparable<?> value) {
    return value instanceof BigDecimal number ? canonicalNumber(number) : value;
  }

  /** Compares two values of one key type; values of unlike classes are a caller's error. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Comparable<?> left, Comparable<?> right) {
    try {
      return ((Comparable) left).compareTo(right);
    } catch (ClassCastException e) {
      throw new IllegalArgumentException(
          "cannot compare " + describe(left) + " with " + describe(right), e);
    }
  }

  /** A value and its Java class, for error messages: {@code 'abc' (String)}. */
  static String describe(Object value) {
    return "'" + value + "' (" + value.getClass().getSimpleName() + ")";
  }

  /** A value as SQL would spell it, when its key type is not known. */
  static String format(Comparable<?> value) {
    if (value instanceof String text) {
      return quote(text);
    }
    if (value instanceof BigDecimal number) {
      return number.toPlainString();
    }
    return String.valueOf(value);
  }

  static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
