package io.shardset.routing;

import io.shardset.routing.KeyDomain.Interval;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

import static io.shardset.routing.RoutingAsserts.assertIllegal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link KeyDomain}: normalization, intersection, union, points and NULL. */
class KeyDomainTest {
  @Test void intervalsAreSortedAndMergedWhenTheyOverlapOrTouch() {
    KeyDomain domain = KeyDomain.of(List.of(
        closedOpen(5, 7), closedOpen(1, 3), closed(2, 4), closed(7, 7), open(10, 12)), false);
    assertEquals("[1, 4] ∪ [5, 7] ∪ (10, 12)", domain.toString());
    assertEquals(List.of(closed(1, 4), closed(5, 7), open(10, 12)), domain.intervals());
  }

  @Test void intervalsThatOnlyShareAnExcludedEndStaySeparate() {
    KeyDomain domain = KeyDomain.of(List.of(closedOpen(1, 5), new Interval(5, false, 7, true)),
        false);
    assertEquals("[1, 5) ∪ (5, 7]", domain.toString());
    assertEquals(KeyDomain.range(1, true, 7, true),
        domain.union(KeyDomain.point(5)));
  }

  @Test void unboundedIntervalsSwallowWhatTheyCover() {
    KeyDomain domain = KeyDomain.of(List.of(
        closed(1, 2), new Interval(null, false, 0, false), new Interval(0, true, null, false)),
        false);
    assertEquals(KeyDomain.notNull(), domain);
    assertEquals("(-∞, +∞)", domain.toString());
  }

  @Test void emptyIntervalsAreDropped() {
    KeyDomain domain = KeyDomain.of(
        List.of(closedOpen(5, 5), new Interval(5, false, 5, true), closed(6, 5), open(3, 3)),
        false);
    assertTrue(domain.isEmpty());
    assertEquals(KeyDomain.none(), domain);
    assertTrue(KeyDomain.range(3, true, 3, false).isEmpty());
    assertFalse(KeyDomain.range(3, true, 3, true).isEmpty());
  }

  @Test void unboundedEndsAreNeverInclusive() {
    assertEquals(new Interval(null, false, 3, true), new Interval(null, true, 3, true));
    assertEquals(new Interval(3, false, null, false), new Interval(3, false, null, true));
  }

  @Test void integralDomainsCloseExclusiveBoundsOnTheNextIntegerInward() {
    KeyDomain domain = KeyDomain.of(List.of(
        new Interval(number("99"), false, number("200"), false),
        new Interval(number("299.5"), true, number("310.5"), true),
        Interval.point(number("42.5")), Interval.point(number("7.0")),
        new Interval(null, false, number("-3"), false)), true);
    assertEquals("(-∞, -4] ∪ {7} ∪ [100, 199] ∪ [300, 310] ∪ NULL",
        domain.integral().toString());
    assertTrue(KeyDomain.point(number("42.5")).integral().isEmpty());
    assertTrue(KeyDomain.range(number("1"), false, number("2"), false).integral().isEmpty());
    assertEquals(KeyDomain.point("a"), KeyDomain.point("a").integral());
  }

  private static BigDecimal number(String text) {
    return new BigDecimal(text);
  }

  @Test void points() {
    KeyDomain domain = KeyDomain.points(List.of(3, 1, 2, 1));
    assertEquals(Optional.of(List.of(1, 2, 3)), domain.finitePoints());
    assertEquals("{1, 2, 3}", domain.toString());
    assertEquals(KeyDomain.point(2), domain.intersect(KeyDomain.range(2, true, 3, false)));
    assertEquals(Optional.of(List.of()), KeyDomain.none().finitePoints());
    assertEquals(Optional.of(List.of()), KeyDomain.nullOnly().finitePoints());
    assertEquals(Optional.empty(), KeyDomain.points(List.of(1, 2))
        .union(KeyDomain.range(5, true, 6, true)).finitePoints());
    assertEquals(Optional.empty(), KeyDomain.notNull().finitePoints());
    assertEquals(Optional.of(List.of(4)), KeyDomain.range(4, true, 4, true).finitePoints());
  }

  @Test void numbersEqualInValueAreOnePoint() {
    KeyDomain integral = KeyDomain.point(new BigDecimal("42"));
    KeyDomain decimal = KeyDomain.point(new BigDecimal("42.0"));
    assertEquals(integral, decimal);
    assertEquals(integral.hashCode(), decimal.hashCode());
    assertEquals(integral, integral.intersect(decimal));
    assertEquals(Optional.of(List.of(new BigDecimal("42"))),
        integral.union(decimal).finitePoints());
    assertEquals(integral, KeyDomain.points(
        List.of(new BigDecimal("42.00"), new BigDecimal("4.2E+1"), new BigDecimal("42"))));
    assertEquals("{42}", decimal.toString());
    assertTrue(KeyDomain.range(new BigDecimal("42.0"), false, new BigDecimal("42"), true)
        .isEmpty());
  }

  @Test void intersect() {
    assertEquals(KeyDomain.range(5, false, 10, false),
        KeyDomain.range(1, true, 10, false).intersect(KeyDomain.range(5, false, null, false)));
    KeyDomain holes = KeyDomain.of(List.of(closedOpen(0, 10), closedOpen(20, 30),
        closedOpen(40, 50)), false);
    assertEquals("[5, 10) ∪ [20, 30) ∪ [40, 45]",
        holes.intersect(KeyDomain.range(5, true, 45, true)).toString());
    assertEquals("{0, 25}",
        holes.intersect(KeyDomain.points(List.of(0, 10, 25, 30, 99))).toString());
    assertEquals(KeyDomain.none(), KeyDomain.point(1).intersect(KeyDomain.point(2)));
    assertEquals(KeyDomain.none(),
        KeyDomain.range(null, false, 5, false).intersect(KeyDomain.range(5, true, null, false)));
    assertEquals(KeyDomain.point(5),
        KeyDomain.range(null, false, 5, true).intersect(KeyDomain.range(5, true, null, false)));
    assertEquals(holes, holes.intersect(KeyDomain.all()));
    assertEquals(KeyDomain.none(), holes.intersect(KeyDomain.none()));
  }

  @Test void union() {
    assertEquals("[1, 10)",
        KeyDomain.range(1, true, 5, false).union(KeyDomain.range(3, true, 10, false)).toString());
    assertEquals("[1, 5) ∪ {7} ∪ NULL", KeyDomain.range(1, true, 5, false)
        .union(KeyDomain.point(7)).union(KeyDomain.nullOnly()).toString());
    KeyDomain exceptEu = KeyDomain.range(null, false, "EU", false)
        .union(KeyDomain.range("EU", false, null, false));
    assertEquals("(-∞, 'EU') ∪ ('EU', +∞)", exceptEu.toString());
    assertEquals(KeyDomain.notNull(), exceptEu.union(KeyDomain.point("EU")));
    assertEquals(KeyDomain.point(3), KeyDomain.none().union(KeyDomain.point(3)));
  }

  @Test void nullIsTrackedApartFromValues() {
    assertTrue(KeyDomain.all().includesNull());
    assertTrue(KeyDomain.all().isAll());
    assertFalse(KeyDomain.notNull().isAll());
    assertFalse(KeyDomain.notNull().includesNull());
    assertTrue(KeyDomain.notNull().withNull(true).isAll());
    assertEquals(KeyDomain.notNull(), KeyDomain.all().withNull(false));
    assertFalse(KeyDomain.nullOnly().isEmpty());
    assertTrue(KeyDomain.nullOnly().intervals().isEmpty());
    assertEquals(KeyDomain.nullOnly(), KeyDomain.all().intersect(KeyDomain.nullOnly()));
    assertEquals(KeyDomain.none(), KeyDomain.notNull().intersect(KeyDomain.nullOnly()));
    assertEquals(KeyDomain.all(), KeyDomain.notNull().union(KeyDomain.nullOnly()));
    KeyDomain oneOrNull = KeyDomain.point(1).withNull(true);
    assertEquals(oneOrNull, oneOrNull.intersect(KeyDomain.points(List.of(1, 2)).withNull(true)));
    assertEquals(KeyDomain.point(1), oneOrNull.intersect(KeyDomain.points(List.of(1, 2))));
    assertNotEquals(KeyDomain.point(1), KeyDomain.point(1).withNull(true));
    assertEquals("{1} ∪ NULL", KeyDomain.point(1).withNull(true).toString());
    assertEquals("NULL", KeyDomain.nullOnly().toString());
    assertEquals("(-∞, +∞) ∪ NULL", KeyDomain.all().toString());
    assertEquals("∅", KeyDomain.none().toString());
  }

  @Test void valuesCanBeSpelledAsTheirKeyType() {
    KeyDomain days = KeyDomain.range(18262L, true, 18293L, false).union(KeyDomain.point(-1L));
    assertEquals("{1969-12-31} ∪ [2020-01-01, 2020-02-01)", days.toString(KeyType.DATE));
    assertEquals("{-1} ∪ [18262, 18293)", days.toString());
  }

  @Test void valuesOfUnlikeClassesCannotShareADomain() {
    assertIllegal("cannot compare 'a' (String) with '1' (Integer)",
        () -> KeyDomain.points(List.of(1, "a")));
  }

  private static Interval closed(int lower, int upper) {
    return new Interval(lower, true, upper, true);
  }

  private static Interval closedOpen(int lower, int upper) {
    return new Interval(lower, true, upper, false);
  }

  private static Interval open(int lower, int upper) {
    return new Interval(lower, false, upper, false);
  }
}
