package io.shardset.calcite.runtime;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * MIN and MAX that combine the shards' partial results in the order the shards themselves
 * compare values, where that order is not Java's.
 *
 * <p>Calcite compares strings by UTF-16 code units, while PostgreSQL (in a "C" collation) and
 * MariaDB (in a binary collation) compare code points: a character outside the Basic
 * Multilingual Plane sorts below U+FFFF in the one and above it in the other. And Calcite's
 * MAX over doubles never chooses NaN, which PostgreSQL and H2 sort above every number. Each
 * nested class is an aggregate function in the form Calcite calls reflectively.
 */
public final class MergedMinMax {
  private MergedMinMax() {
  }

  /** MAX of strings by code point. */
  public static final class CodePointMax {
    public static @Nullable String init() {
      return null;
    }

    public static @Nullable String add(@Nullable String max, String value) {
      return max == null || compareCodePoints(value, max) > 0 ? value : max;
    }

    public static @Nullable String result(@Nullable String max) {
      return max;
    }
  }

  /** MIN of strings by code point. */
  public static final class CodePointMin {
    public static @Nullable String init() {
      return null;
    }

    public static @Nullable String add(@Nullable String min, String value) {
      return min == null || compareCodePoints(value, min) < 0 ? value : min;
    }

    public static @Nullable String result(@Nullable String min) {
      return min;
    }
  }

  /** MAX of doubles with NaN above every number. */
  public static final class NanHighMax {
    public static @Nullable Double init() {
      return null;
    }

    public static @Nullable Double add(@Nullable Double max, Double value) {
      return max == null || Double.compare(value, max) > 0 ? value : max;
    }

    public static @Nullable Double result(@Nullable Double max) {
      return max;
    }
  }

  /** MIN of doubles with NaN above every number. */
  public static final class NanHighMin {
    public static @Nullable Double init() {
      return null;
    }

    public static @Nullable Double add(@Nullable Double min, Double value) {
      return min == null || Double.compare(value, min) < 0 ? value : min;
    }

    public static @Nullable Double result(@Nullable Double min) {
      return min;
    }
  }

  /** Compares two strings by Unicode code point, as a binary UTF-8 comparison does. */
  public static int compareCodePoints(String left, String right) {
    int i = 0;
    int j = 0;
    while (i < left.length() && j < right.length()) {
      final int a = left.codePointAt(i);
      final int b = right.codePointAt(j);
      if (a != b) {
        return Integer.compare(a, b);
      }
      i += Character.charCount(a);
      j += Character.charCount(b);
    }
    return Integer.compare(left.length() - i, right.length() - j);
  }
}
