package io.shardset.tpch;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Compares two query results value by value: exactly, except for approximate values (DOUBLE
 * values, and columns declared approximate), which may differ by a relative tolerance.
 */
final class ResultComparison {
  /** The relative difference two approximate values may have. */
  static final double RELATIVE_TOLERANCE = 1e-9;

  private final Set<Integer> approximateColumns;

  /** A comparison in which the given 0-based columns are approximate. */
  ResultComparison(Set<Integer> approximateColumns) {
    this.approximateColumns = Set.copyOf(approximateColumns);
  }

  /**
   * Describes the first difference between two results, row by row in their order, or is empty
   * if they are equal.
   */
  Optional<String> difference(ResultRows expected, ResultRows actual) {
    final List<List<Object>> e = expected.rows();
    final List<List<Object>> a = actual.rows();
    for (int r = 0; r < Math.min(e.size(), a.size()); r++) {
      if (e.get(r).size() != a.get(r).size()) {
        return Optional.of("row " + r + " has " + a.get(r).size() + " columns, expected "
            + e.get(r).size());
      }
      for (int c = 0; c < e.get(r).size(); c++) {
        final Object ev = e.get(r).get(c);
        final Object av = a.get(r).get(c);
        if (!equal(c, ev, av)) {
          return Optional.of("row " + r + " column " + c + ": expected " + describe(ev)
              + " but was " + describe(av) + "; expected row " + e.get(r) + ", actual row "
              + a.get(r));
        }
      }
    }
    if (e.size() != a.size()) {
      return Optional.of(a.size() + " rows, expected " + e.size());
    }
    return Optional.empty();
  }

  private boolean equal(int column, Object expected, Object actual) {
    if (expected == null || actual == null) {
      return expected == actual;
    }
    final boolean approximate = approximateColumns.contains(column)
        || expected instanceof Double || actual instanceof Double;
    if (approximate && expected instanceof Number e && actual instanceof Number a) {
      return close(e.doubleValue(), a.doubleValue());
    }
    return Objects.equals(expected, actual);
  }

  static boolean close(double expected, double actual) {
    if (expected == actual) {
      return true;
    }
    final double scale = Math.max(Math.abs(expected), Math.abs(actual));
    return Math.abs(expected - actual) <= RELATIVE_TOLERANCE * scale;
  }

  private static String describe(Object value) {
    if (value == null) {
      return "NULL";
    }
    final String text = value instanceof BigDecimal d ? d.toPlainString() : value.toString();
    return text + " (" + value.getClass().getSimpleName() + ")";
  }
}
