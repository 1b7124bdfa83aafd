package io.shardset.routing;

import io.shardset.routing.RangeRouter.Partition;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalInt;

import static io.shardset.routing.RoutingAsserts.assertIllegal;
import static io.shardset.routing.RoutingAsserts.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link RangeRouter}. */
class RangeRouterTest {
  /** [0, 10) on shard 0, [10, 20) on shard 1, [20, 30) on shard 2; given out of order. */
  private final RangeRouter bounded = new RangeRouter(KeyType.NUMBER, List.of(
      new Partition(20, 30, 2), new Partition(0, 10, 0), new Partition(10, 20, 1)), 3);

  /** The specification's EVENTS table: before 2020 on shard 0, from 2020 on shard 1. */
  private final RangeRouter events = new RangeRouter(KeyType.DATE, List.of(
      new Partition(null, "2020-01-01", 0), new Partition("2020-01-01", null, 1)), 2);

  @Test void partitionsAreSortedAndNormalized() {
    assertEquals(List.of(new Partition(bd(0), bd(10), 0), new Partition(bd(10), bd(20), 1),
        new Partition(bd(20), bd(30), 2)), bounded.partitions());
    assertEquals(List.of(new Partition(null, 18262L, 0), new Partition(18262L, null, 1)),
        events.partitions());
  }

  @Test void shardOf() {
    assertEquals(OptionalInt.of(0), shardOf(bounded, 0));
    assertEquals(OptionalInt.of(0), shardOf(bounded, 9));
    assertEquals(OptionalInt.of(0), shardOf(bounded, new BigDecimal("9.999")));
    assertEquals(OptionalInt.of(1), shardOf(bounded, 10L));
    assertEquals(OptionalInt.of(1), shardOf(bounded, "19.5"));
    assertEquals(OptionalInt.of(2), shardOf(bounded, new BigDecimal("20.00")));
    assertEquals(OptionalInt.of(2), shardOf(bounded, 29));
    assertEquals(OptionalInt.empty(), shardOf(bounded, 30));
    assertEquals(OptionalInt.empty(), shardOf(bounded, -1));
    assertEquals(OptionalInt.empty(), shardOf(bounded, null));
    assertEquals(OptionalInt.of(0), shardOf(events, LocalDate.of(1900, 1, 1)));
    assertEquals(OptionalInt.of(0), shardOf(events, "2019-12-31"));
    assertEquals(OptionalInt.of(1), shardOf(events, "2020-01-01"));
    assertEquals(OptionalInt.of(1), shardOf(events, LocalDate.of(9999, 12, 31)));
    assertEquals(OptionalInt.empty(), shardOf(events, null));
  }

  @Test void comparisonsAtARangeBoundary() {
    assertEquals(shards(0), below(10, false));
    assertEquals(shards(0, 1), below(10, true));
    assertEquals(shards(1, 2), above(10, false));
    assertEquals(shards(1, 2), above(10, true));
    assertEquals(shards(0, 1, 2), above(9, false));
    assertEquals(shards(0, 1, 2), above(bd("9.99999"), false));
    assertEquals(shards(0, 1), below(20, false));
    assertEquals(shards(0, 1, 2), below(20, true));
  }

  @Test void comparisonsAtTheOuterEnds() {
    assertEquals(shards(), below(0, false));
    assertEquals(shards(0), below(0, true));
    assertEquals(shards(), above(30, true));
    assertEquals(shards(2), above(29, false));
    assertEquals(shards(2), above(bd("29.5"), true));
    assertEquals(shards(0, 1, 2), below(100, false));
  }

  @Test void betweenAndPoints() {
    assertEquals(shards(1), route(bounded, KeyDomain.range(bd(10), true, bd(19), true)));
    assertEquals(shards(1), route(bounded, KeyDomain.range(bd(10), false, bd(20), false)));
    assertEquals(shards(1, 2), route(bounded, KeyDomain.range(bd(10), false, bd(20), true)));
    assertEquals(shards(0, 1), route(bounded, KeyDomain.range(bd(9), true, bd(10), true)));
    assertEquals(shards(0, 1, 2), route(bounded, KeyDomain.range(bd(5), true, bd(20), true)));
    assertEquals(shards(2), route(bounded, KeyDomain.point(bd(20))));
    assertEquals(shards(0, 2), route(bounded, KeyDomain.points(List.of(bd(5), bd(25)))));
    assertEquals(shards(), route(bounded, KeyDomain.point(bd(30))));
  }

  @Test void nullAndTheWholeDomain() {
    assertEquals(shards(), route(bounded, KeyDomain.nullOnly()));
    assertEquals(shards(), route(bounded, KeyDomain.none()));
    assertEquals(shards(1), route(bounded, KeyDomain.point(bd(15)).withNull(true)));
    assertEquals(shards(0, 1, 2), route(bounded, KeyDomain.all()));
  }

  @Test void dates() {
    long newYear2020 = 18262L;
    assertEquals(shards(0), route(events, KeyDomain.range(null, false, newYear2020, false)));
    assertEquals(shards(0, 1), route(events, KeyDomain.range(null, false, newYear2020, true)));
    assertEquals(shards(1), route(events, KeyDomain.range(newYear2020, true, null, false)));
    assertEquals(shards(1), route(events, KeyDomain.range(newYear2020 - 1, false, null, false)));
    assertEquals(shards(0, 1),
        route(events, KeyDomain.range(newYear2020 - 1, true, null, false)));
    assertEquals(shards(0, 1),
        route(events, KeyDomain.range(null, false, newYear2020 + 1, false)));
    // No whole day lies strictly between two consecutive days.
    assertEquals(shards(),
        route(events, KeyDomain.range(newYear2020 - 1, false, newYear2020, false)));
  }

  @Test void timestampsMayHoldFractionsOfAMillisecond() {
    long newYear2020 = 1_577_836_800_000L;
    RangeRouter router = new RangeRouter(KeyType.TIMESTAMP, List.of(
        new Partition(null, "2020-01-01 00:00:00", 0), new Partition("2020-01-01", null, 1)), 2);
    assertEquals(List.of(new Partition(null, newYear2020, 0), new Partition(newYear2020, null, 1)),
        router.partitions());
    assertEquals(shards(0, 1),
        route(router, KeyDomain.range(newYear2020 - 1, false, null, false)));
    assertEquals(shards(1), route(router, KeyDomain.range(newYear2020, false, null, false)));
    assertEquals(shards(0), route(router, KeyDomain.range(null, false, newYear2020, false)));
  }

  @Test void severalRangesOnOneShard() {
    RangeRouter router = new RangeRouter(KeyType.STRING, List.of(new Partition(null, "H", 0),
        new Partition("H", "P", 1), new Partition("P", null, 0)), 2);
    assertEquals(OptionalInt.of(0), router.shardOf(List.of("Zürich")));
    assertEquals(OptionalInt.of(1), router.shardOf(List.of("H")));
    assertEquals(shards(0), route(router, KeyDomain.points(List.of("A", "Q"))));
    assertEquals(shards(0, 1), route(router, KeyDomain.range("G", true, "I", true)));
  }

  @Test void overlappingRangesAreRejected() {
    assertIllegal("range [10, 20) on shard 1 overlaps range [0, 15) on shard 0",
        () -> new RangeRouter(KeyType.NUMBER,
            List.of(new Partition(10, 20, 1), new Partition(0, 15, 0)), 2));
    assertIllegal("range [20, 30) on shard 1 overlaps range [10, +∞) on shard 0",
        () -> new RangeRouter(KeyType.NUMBER,
            List.of(new Partition(10, null, 0), new Partition(20, 30, 1)), 2));
    assertIllegal("range (-∞, 5) on shard 1 overlaps range (-∞, 10) on shard 0",
        () -> new RangeRouter(KeyType.NUMBER,
            List.of(new Partition(null, 10, 0), new Partition(null, 5, 1)), 2));
    assertIllegal("range [10, 20) on shard 1 overlaps range [10, 20) on shard 0",
        () -> new RangeRouter(KeyType.NUMBER,
            List.of(new Partition(10, 20, 0), new Partition(new BigDecimal("10.0"), 20, 1)), 2));
  }

  @Test void gapsAreRejected() {
    assertIllegal("gap between range [0, 10) on shard 0 and range [20, 30) on shard 1",
        () -> new RangeRouter(KeyType.NUMBER,
            List.of(new Partition(20, 30, 1), new Partition(0, 10, 0)), 2));
    assertIllegal("gap between range (-∞, 2020-01-01) on shard 0 and range"
        + " [2020-02-01, +∞) on shard 1", () -> new RangeRouter(KeyType.DATE, List.of(
            new Partition(null, "2020-01-01", 0), new Partition("2020-02-01", null, 1)), 2));
    assertIllegal("gap between range ['A', 'M') on shard 0 and range ['N', +∞) on shard 1",
        () -> new RangeRouter(KeyType.STRING,
            List.of(new Partition("A", "M", 0), new Partition("N", null, 1)), 2));
  }

  @Test void malformedRangesAreRejected() {
    assertIllegal("range [20, 10) on shard 1 is empty: from must be less than to",
        () -> new RangeRouter(KeyType.NUMBER, List.of(new Partition(20, 10, 1)), 2));
    assertIllegal("range [10, 10) on shard 0 is empty: from must be less than to",
        () -> new RangeRouter(KeyType.NUMBER, List.of(new Partition(10, 10L, 0)), 2));
    assertIllegal("range [0, 10) names shard 3, but the table's shards are 0 to 2",
        () -> new RangeRouter(KeyType.NUMBER, List.of(new Partition(0, 10, 3)), 3));
    assertIllegal("value 'soon' (String) is not a valid DATE",
        () -> new RangeRouter(KeyType.DATE, List.of(new Partition(null, "soon", 0)), 1));
  }

  private BitSet below(Object value, boolean inclusive) {
    return route(bounded, KeyDomain.range(null, false, number(value), inclusive));
  }

  private BitSet above(Object value, boolean inclusive) {
    return route(bounded, KeyDomain.range(number(value), inclusive, null, false));
  }

  private static BitSet route(RangeRouter router, KeyDomain domain) {
    return router.shardsFor(List.of(domain));
  }

  private static OptionalInt shardOf(RangeRouter router, Object value) {
    return router.shardOf(Arrays.asList(value));
  }

  private static Comparable<?> number(Object value) {
    return KeyType.NUMBER.normalize(value);
  }

  private static BigDecimal bd(int value) {
    return BigDecimal.valueOf(value);
  }

  private static BigDecimal bd(String value) {
    return new BigDecimal(value);
  }
}
