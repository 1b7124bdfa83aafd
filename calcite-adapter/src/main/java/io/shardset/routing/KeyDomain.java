package io.shardset.routing;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A set of normalized values of one key type: disjoint sorted intervals, plus whether NULL is in
 * it.
 *
 * <p>Values inside one domain are mutually comparable and are compared with {@code compareTo}, so
 * the BigDecimals 42 and 42.0 are the same point. Instances are immutable and always normalized:
 * intervals are sorted, none is empty, and none overlaps or touches another.
 */
public final class KeyDomain {
  private static final Interval EVERY_VALUE = new Interval(null, false, null, false);
  private static final KeyDomain ALL = new KeyDomain(List.of(EVERY_VALUE), true);
  private static final KeyDomain NONE = new KeyDomain(List.of(), false);
  private static final KeyDomain NOT_NULL = new KeyDomain(List.of(EVERY_VALUE), false);
  private static final KeyDomain NULL_ONLY = new KeyDomain(List.of(), true);

  private final List<Interval> intervals;
  private final boolean includesNull;

  /**
   * The values between two bounds; a null bound is unbounded on that side (and then never
   * inclusive).
   */
  public record Interval(
      Comparable<?> lower, boolean lowerInclusive, Comparable<?> upper, boolean upperInclusive) {
    public Interval {
      lower = lower == null ? null : KeyValues.canonical(lower);
      lowerInclusive = lower != null && lowerInclusive;
      upper = upper == null ? null : KeyValues.canonical(upper);
      upperInclusive = upper != null && upperInclusive;
    }

    /** The interval holding just {@code value}. */
    public static Interval point(Comparable<?> value) {
      Objects.requireNonNull(value, "value");
      return new Interval(value, true, value, true);
    }

    /** Whether this interval holds exactly one value. */
    public boolean isPoint() {
      return lowerInclusive && upperInclusive && KeyValues.compare(lower, upper) == 0;
    }

    /** Whether this interval holds no value at all. */
    public boolean isEmpty() {
      if (lower == null || upper == null) {
        return false;
      }
      int c = KeyValues.compare(lower, upper);
      return c > 0 || c == 0 && !(lowerInclusive && upperInclusive);
    }

    /** This interval with each value spelled by {@code format}: "[1, 5)", "(-∞, 'EU')", "{7}". */
    public String toString(Function<Comparable<?>, String> format) {
      if (isPoint()) {
        return "{" + format.apply(lower) + "}";
      }
      return (lower == null ? "(-∞" : (lowerInclusive ? "[" : "(") + format.apply(lower))
          + ", "
          + (upper == null ? "+∞)" : format.apply(upper) + (upperInclusive ? "]" : ")"));
    }

    @Override public String toString() {
      return toString(KeyValues::format);
    }
  }

  private KeyDomain(List<Interval> normalizedIntervals, boolean includesNull) {
    this.intervals = List.copyOf(normalizedIntervals);
    this.includesNull = includesNull;
  }

  /** Every value and NULL. */
  public static KeyDomain all() {
    return ALL;
  }

  /** No value, not even NULL. */
  public static KeyDomain none() {
    return NONE;
  }

  /** One non-null value. */
  public static KeyDomain point(Comparable<?> value) {
    return new KeyDomain(List.of(Interval.point(value)), false);
  }

  /** Some non-null values, in any order and possibly repeated. */
  public static KeyDomain points(Collection<? extends Comparable<?>> values) {
    List<Interval> points = new ArrayList<>(values.size());
    for (Comparable<?> value : values) {
      points.add(Interval.point(value));
    }
    return of(points, false);
  }

  /** Just NULL. */
  public static KeyDomain nullOnly() {
    return NULL_ONLY;
  }

  /** Every non-null value. */
  public static KeyDomain notNull() {
    return NOT_NULL;
  }

  /** The non-null values between two bounds; a null bound is unbounded on that side. */
  public static KeyDomain range(Comparable<?> lower, boolean lowerInclusive,
      Comparable<?> upper, boolean upperInclusive) {
    return of(List.of(new Interval(lower, lowerInclusive, upper, upperInclusive)), false);
  }

  /**
   * The union of some intervals, plus NULL if {@code includesNull}. Intervals may come in any
   * order; empty ones are dropped, overlapping and touching ones are merged.
   */
  public static KeyDomain of(List<Interval> intervals, boolean includesNull) {
    List<Interval> sorted = new ArrayList<>(intervals.size());
    for (Interval interval : intervals) {
      if (!Objects.requireNonNull(interval, "interval").isEmpty()) {
        sorted.add(interval);
      }
    }
    sorted.sort(KeyDomain::compareLower);
    List<Interval> merged = new ArrayList<>(sorted.size());
    Interval current = null;
    for (Interval next : sorted) {
      if (current == null) {
        current = next;
      } else if (touches(current, next)) {
        Interval upper = compareUpper(current, next) >= 0 ? current : next;
        current = new Interval(current.lower(), current.lowerInclusive(),
            upper.upper(), upper.upperInclusive());
      } else {
        merged.add(current);
        current = next;
      }
    }
    if (current != null) {
      merged.add(current);
    }
    return new KeyDomain(merged, includesNull);
  }

  /** This domain's values, with or without NULL. */
  public KeyDomain withNull(boolean includesNull) {
    return includesNull == this.includesNull ? this : new KeyDomain(intervals, includesNull);
  }

  /** The values in both domains. */
  public KeyDomain intersect(KeyDomain other) {
    List<Interval> result = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < intervals.size() && j < other.intervals.size()) {
      Interval left = intervals.get(i);
      Interval right = other.intervals.get(j);
      Interval lower = compareLower(left, right) >= 0 ? left : right;
      boolean leftEndsFirst = compareUpper(left, right) <= 0;
      Interval upper = leftEndsFirst ? left : right;
      result.add(new Interval(lower.lower(), lower.lowerInclusive(),
          upper.upper(), upper.upperInclusive()));
      if (leftEndsFirst) {
        i++;
      } else {
        j++;
      }
    }
    return of(result, includesNull && other.includesNull);
  }

  /** The values in either domain. */
  public KeyDomain union(KeyDomain other) {
    List<Interval> both = new ArrayList<>(intervals);
    both.addAll(other.intervals);
    return of(both, includesNull || other.includesNull);
  }

  /**
   * The integers of this domain, for a column that holds only integers: each numeric interval
   * becomes the closed one between the integers it holds, so that an exclusive bound is read
   * as the next integer inward ((99, 200) is [100, 199]) and a point with a fraction is
   * dropped. A router that compares bounds as exact numbers then reaches no range that holds
   * no integer of the domain. Intervals of other values are kept as they are.
   */
  public KeyDomain integral() {
    List<Interval> integers = new ArrayList<>(intervals.size());
    for (Interval interval : intervals) {
      if (!(interval.lower() == null || interval.lower() instanceof BigDecimal)
          || !(interval.upper() == null || interval.upper() instanceof BigDecimal)) {
        integers.add(interval);
        continue;
      }
      BigDecimal lower = (BigDecimal) interval.lower();
      BigDecimal upper = (BigDecimal) interval.upper();
      if (lower != null) {
        lower = interval.lowerInclusive() ? lower.setScale(0, RoundingMode.CEILING)
            : lower.setScale(0, RoundingMode.FLOOR).add(BigDecimal.ONE);
      }
      if (upper != null) {
        upper = interval.upperInclusive() ? upper.setScale(0, RoundingMode.FLOOR)
            : upper.setScale(0, RoundingMode.CEILING).subtract(BigDecimal.ONE);
      }
      integers.add(new Interval(lower, lower != null, upper, upper != null));
    }
    return of(integers, includesNull);
  }

  /** Whether this domain holds no value and not NULL. */
  public boolean isEmpty() {
    return intervals.isEmpty() && !includesNull;
  }

  /** Whether this domain holds every value and NULL. */
  public boolean isAll() {
    return includesNull && intervals.equals(List.of(EVERY_VALUE));
  }

  public boolean includesNull() {
    return includesNull;
  }

  /** The non-null values: sorted, disjoint intervals that do not touch. */
  public List<Interval> intervals() {
    return intervals;
  }

  /**
   * The non-null values in ascending order when every interval is a single point (an empty list
   * when there are none); empty if some interval is a real range.
   */
  public Optional<List<Comparable<?>>> finitePoints() {
    List<Comparable<?>> points = new ArrayList<>(intervals.size());
    for (Interval interval : intervals) {
      if (!interval.isPoint()) {
        return Optional.empty();
      }
      points.add(interval.lower());
    }
    return Optional.of(List.copyOf(points));
  }

  @Override public boolean equals(Object o) {
    return o == this
        || o instanceof KeyDomain that
            && includesNull == that.includesNull
            && intervals.equals(that.intervals);
  }

  @Override public int hashCode() {
    return intervals.hashCode() * 31 + Boolean.hashCode(includesNull);
  }

  /** This domain with values spelled as SQL spells values of {@code type}. */
  public String toString(KeyType type) {
    return toString(type::format);
  }

  /** Like "[1, 5) ∪ {7, 9} ∪ NULL"; the empty domain is "∅". */
  @Override public String toString() {
    return toString(KeyValues::format);
  }

  private String toString(Function<Comparable<?>, String> format) {
    List<String> parts = new ArrayList<>();
    List<String> points = new ArrayList<>();
    for (Interval interval : intervals) {
      if (interval.isPoint()) {
        points.add(format.apply(interval.lower()));
        continue;
      }
      addPoints(parts, points);
      parts.add(interval.toString(format));
    }
    addPoints(parts, points);
    if (includesNull) {
      parts.add("NULL");
    }
    return parts.isEmpty() ? "∅" : String.join(" ∪ ", parts);
  }

  /** Runs of consecutive points read better as one set: {1, 2, 3}. */
  private static void addPoints(List<String> parts, List<String> points) {
    if (!points.isEmpty()) {
      parts.add("{" + String.join(", ", points) + "}");
      points.clear();
    }
  }

  /** Orders lower bounds; -∞ first, and at equal values an inclusive bound before an exclusive. */
  private static int compareLower(Interval left, Interval right) {
    if (left.lower() == null || right.lower() == null) {
      return Boolean.compare(right.lower() == null, left.lower() == null);
    }
    int c = KeyValues.compare(left.lower(), right.lower());
    return c != 0 ? c : Boolean.compare(right.lowerInclusive(), left.lowerInclusive());
  }

  /** Orders upper bounds; +∞ last, and at equal values an exclusive bound before an inclusive. */
  private static int compareUpper(Interval left, Interval right) {
    if (left.upper() == null || right.upper() == null) {
      return Boolean.compare(left.upper() == null, right.upper() == null);
    }
    int c = KeyValues.compare(left.upper(), right.upper());
    return c != 0 ? c : Boolean.compare(left.upperInclusive(), right.upperInclusive());
  }

  /** Whether {@code next}, which starts no earlier than {@code current}, overlaps or touches it. */
  private static boolean touches(Interval current, Interval next) {
    if (current.upper() == null || next.lower() == null) {
      return true;
    }
    int c = KeyValues.compare(next.lower(), current.upper());
    return c < 0 || c == 0 && (current.upperInclusive() || next.lowerInclusive());
  }
}
