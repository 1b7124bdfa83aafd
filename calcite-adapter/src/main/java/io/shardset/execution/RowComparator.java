package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Compares rows of Calcite's internal representation by sort keys, in the order the shards
 * return them for the same {@code ORDER BY}, so that a merge of sorted shard results is sorted.
 *
 * <p>Values of one field are of one class, as {@link RowReader} reads them, and are compared with
 * their natural order: numbers by value, {@code false} before {@code true}, {@link
 * org.apache.calcite.avatica.util.ByteString} by unsigned bytes, dates and times as the numbers
 * that represent them. Numbers of different classes are compared by value too, through
 * {@link BigDecimal}, so {@code 1.0} equals {@code 1.00} and {@code Integer 7} equals {@code
 * Long 7}. NULL goes first or last as its key says, whatever the direction.
 *
 * <p>Strings are compared with {@link String#compareTo}, by UTF-16 code units. That is the order
 * of H2 without a collation, and, for text without characters outside the Basic Multilingual
 * Plane, of PostgreSQL's {@code "C"} collation. Shards that sort strings by another collation
 * (a linguistic one such as {@code en_US.UTF-8} or ICU, or case-insensitive) must not be merged
 * with this comparator: the merged stream would be sorted under no order at all. Whether a
 * merge is valid is the planner's decision.
 */
public final class RowComparator implements Comparator<@Nullable Object[]> {
  private final List<SortKey> keys;

  private RowComparator(List<SortKey> keys) {
    this.keys = List.copyOf(keys);
  }

  /** Creates a comparator by these keys, most significant first. */
  public static RowComparator of(List<SortKey> keys) {
    Objects.requireNonNull(keys, "keys");
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("a row comparator needs at least one sort key");
    }
    return new RowComparator(keys);
  }

  /** Returns the sort keys, most significant first. */
  public List<SortKey> keys() {
    return keys;
  }

  @Override public int compare(@Nullable Object[] left, @Nullable Object[] right) {
    for (SortKey key : keys) {
      int c = compare(key, left[key.field()], right[key.field()]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static int compare(SortKey key, @Nullable Object left, @Nullable Object right) {
    if (left == null || right == null) {
      if (left == right) {
        return 0;
      }
      return (left == null) == key.nullsFirst() ? -1 : 1;
    }
    int c = compareValues(key.field(), left, right);
    return key.descending() ? -c : c;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareValues(int field, Object left, Object right) {
    if (left.getClass() == right.getClass() && left instanceof Comparable) {
      return ((Comparable) left).compareTo(right);
    }
    if (left instanceof Number l && right instanceof Number r) {
      return compareNumbers(l, r);
    }
    throw new IllegalArgumentException("cannot compare values of field " + field + ": "
        + left.getClass().getName() + " " + left + " and " + right.getClass().getName() + " "
        + right);
  }

  /** Compares numbers of different classes by value. */
  private static int compareNumbers(Number left, Number right) {
    if (!isFinite(left) || !isFinite(right)) {
      // Infinities and NaN have no BigDecimal; Double's order puts NaN above +Infinity, as H2
      // and PostgreSQL do.
      return Double.compare(left.doubleValue(), right.doubleValue());
    }
    return toBigDecimal(left).compareTo(toBigDecimal(right));
  }

  private static boolean isFinite(Number number) {
    return !(number instanceof Double || number instanceof Float)
        || Double.isFinite(number.doubleValue());
  }

  private static BigDecimal toBigDecimal(Number number) {
    if (number instanceof BigDecimal decimal) {
      return decimal;
    }
    if (number instanceof Double || number instanceof Float) {
      // The exact binary value: a finite double always has one.
      return new BigDecimal(number.doubleValue());
    }
    if (number instanceof BigInteger integer) {
      return new BigDecimal(integer);
    }
    if (number instanceof Long || number instanceof Integer || number instanceof Short
        || number instanceof Byte) {
      return BigDecimal.valueOf(number.longValue());
    }
    return new BigDecimal(number.toString());
  }
}
