package io.shardset.routing;

import io.shardset.routing.KeyCondition.Op;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntFunction;

import static io.shardset.routing.KeyCondition.and;
import static io.shardset.routing.KeyCondition.any;
import static io.shardset.routing.KeyCondition.compare;
import static io.shardset.routing.KeyCondition.eq;
import static io.shardset.routing.KeyCondition.eqParam;
import static io.shardset.routing.KeyCondition.literal;
import static io.shardset.routing.KeyCondition.or;
import static io.shardset.routing.KeyCondition.param;
import static io.shardset.routing.KeyCondition.restrict;
import static io.shardset.routing.RoutingAsserts.assertIllegal;
import static io.shardset.routing.RoutingAsserts.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link KeyCondition}: evaluation against routers, with literals and parameters. */
class KeyConditionTest {
  private static final IntFunction<Object> NO_PARAMS = index -> {
    throw new AssertionError("no parameter expected, asked for ?" + index);
  };

  /** [0, 10) on shard 0, [10, 20) on shard 1, [20, 30) on shard 2. */
  private final RangeRouter ranges = new RangeRouter(KeyType.NUMBER, List.of(
      new RangeRouter.Partition(0, 10, 0), new RangeRouter.Partition(10, 20, 1),
      new RangeRouter.Partition(20, 30, 2)), 3);

  /** The specification's placement: 480 chunks on 4 shards; 1 → chunk 34, 42 → chunk 357. */
  private final HashRouter hash =
      new HashRouter(List.of(KeyType.NUMBER), ChunkMap.defaultPlacement(480, 4), 4);

  /** (1, 'EU') → chunk 291, shard 3 of 4. */
  private final HashRouter pair = new HashRouter(List.of(KeyType.NUMBER, KeyType.STRING),
      ChunkMap.defaultPlacement(480, 4), 4);

  /**
   * One equality on a one-column key goes to the router's {@code shardsForKey} without domains:
   * over every router kind and edge values (NULL, extremes, fractions compared with an integer
   * column, strings a list does not name), it reaches the shards the domain path reaches for
   * the same equality beside a term that changes nothing.
   */
  @Test void oneEqualityRoutesAsItsDomainDoes() {
    final ListRouter regions = new ListRouter(KeyType.STRING, List.of(
        new ListRouter.Partition(0, List.of("EU", "")), new ListRouter.Partition(1,
            List.of("US", "\u00e9t\u00e9"))), OptionalInt.empty(), 2);
    final HashRouter names = new HashRouter(List.of(KeyType.STRING),
        ChunkMap.defaultPlacement(480, 4), 4);
    final List<Object> numbers = List.of(0, 1, -1, 9, 10, 29, 30, 42, Long.MAX_VALUE,
        Long.MIN_VALUE, new BigDecimal("42.0"), new BigDecimal("42.5"), new BigDecimal("-0.5"),
        new BigDecimal("1E+3"), new BigDecimal("123456789012345678901234567890"), 7.0d, 7.25d);
    final List<Object> strings = List.of("EU", "US", "", "eu", "\u00e9t\u00e9", "ASIA",
        "x".repeat(300), "'; DROP TABLE T; --");
    int compared = 0;
    for (ShardRouter router : List.of(ranges, hash, regions, names)) {
      final List<Object> values = new ArrayList<>(
          router.keyTypes().get(0) == KeyType.STRING ? strings : numbers);
      values.add(null);
      for (Object value : values) {
        final IntFunction<Object> bound = index -> value;
        for (boolean integral : new boolean[] {false, true}) {
          final KeyCondition direct = new KeyCondition.Compare(0, Op.EQ, param(0), integral);
          assertEquals(and(direct, any()).shards(router, bound), direct.shards(router, bound),
              router + ", " + value + (integral ? ", integral" : ""));
          compared++;
        }
      }
    }
    assertEquals(2 * (2 * 18 + 2 * 9), compared);
  }

  @Test void anyReachesEveryShard() {
    assertEquals(shards(0, 1, 2), any().shards(ranges, NO_PARAMS));
    assertEquals(shards(0, 1, 2, 3), any().shards(hash, NO_PARAMS));
  }

  @Test void comparisonsWithLiterals() {
    assertEquals(shards(1), eq(0, 15).shards(ranges, NO_PARAMS));
    assertEquals(shards(0), compare(0, Op.LT, literal(10)).shards(ranges, NO_PARAMS));
    assertEquals(shards(0, 1), compare(0, Op.LE, literal(10)).shards(ranges, NO_PARAMS));
    assertEquals(shards(1, 2), compare(0, Op.GT, literal(10)).shards(ranges, NO_PARAMS));
    assertEquals(shards(1, 2), compare(0, Op.GE, literal("10")).shards(ranges, NO_PARAMS));
    assertEquals(shards(34 % 4), eq(0, 1L).shards(hash, NO_PARAMS));
    assertEquals(shards(0, 1, 2, 3), compare(0, Op.GE, literal(1)).shards(hash, NO_PARAMS));
  }

  @Test void andIntersectsPerKeyColumn() {
    KeyCondition between10And19 =
        and(compare(0, Op.GE, literal(10)), compare(0, Op.LE, literal(19)));
    assertEquals(shards(1), between10And19.shards(ranges, NO_PARAMS));
    assertEquals(shards(0, 1, 2),
        and(compare(0, Op.GT, literal(5)), compare(0, Op.LT, literal(25))).shards(ranges,
            NO_PARAMS));
    // Hashing needs the points of both columns at once.
    assertEquals(shards(291 % 4), and(eq(0, 1), eq(1, "EU")).shards(pair, NO_PARAMS));
    assertEquals(shards(0, 1, 2, 3), eq(0, 1).shards(pair, NO_PARAMS));
    // A range intersected with points leaves points, which hash.
    assertEquals(shards(357 % 4), and(restrict(0, KeyDomain.points(List.of(bd(1), bd(42)))),
        compare(0, Op.GT, literal(2))).shards(hash, NO_PARAMS));
  }

  @Test void contradictionsReachNoShard() {
    assertEquals(shards(), and(eq(0, 1), eq(0, 2)).shards(ranges, NO_PARAMS));
    assertEquals(shards(), and(eq(0, 1), eq(0, 2)).shards(hash, NO_PARAMS));
    assertEquals(shards(), and(compare(0, Op.LT, literal(5)), compare(0, Op.GT, literal(5)))
        .shards(ranges, NO_PARAMS));
    assertEquals(shards(), and(eq(0, 1), eq(0, 2), eq(1, "EU")).shards(pair, NO_PARAMS));
    // Inside OR, terms meet as shard sets, not as values: 2 and 3 both live on shard 0.
    assertEquals(shards(0), and(or(eq(0, 1), eq(0, 2)), eq(0, 3)).shards(hash, NO_PARAMS));
  }

  @Test void orUnitesAndNestedTermsIntersect() {
    assertEquals(shards(0, 2), or(eq(0, 5), eq(0, 25)).shards(ranges, NO_PARAMS));
    assertEquals(shards(1),
        and(or(eq(0, 5), eq(0, 15)), compare(0, Op.GE, literal(10))).shards(ranges, NO_PARAMS));
    assertEquals(shards(0, 1), and(any(), or(eq(0, 5), eq(0, 15))).shards(ranges, NO_PARAMS));
    assertEquals(shards(34 % 4, 357 % 4), or(eq(0, 1), and(eq(0, 42), any()))
        .shards(hash, NO_PARAMS));
    assertEquals(shards(), or().shards(ranges, NO_PARAMS));
    assertEquals(shards(0, 1, 2), and().shards(ranges, NO_PARAMS));
    assertEquals(shards(0, 1, 2), or(eq(0, 5), any()).shards(ranges, NO_PARAMS));
  }

  @Test void restrictUsesItsDomainAsGiven() {
    KeyDomain lowOrHigh = KeyDomain.range(bd(0), true, bd(5), true)
        .union(KeyDomain.range(bd(25), false, null, false));
    assertEquals(shards(0, 2), restrict(0, lowOrHigh).shards(ranges, NO_PARAMS));
    assertEquals(shards(), restrict(0, KeyDomain.nullOnly()).shards(ranges, NO_PARAMS));
    assertEquals(shards(0), restrict(0, KeyDomain.nullOnly()).shards(hash, NO_PARAMS));
  }

  @Test void parametersOfAnyNumericClassRouteAlike() {
    KeyCondition byParam = eqParam(0, 0);
    int expected = 357 % 4;
    for (Object value : new Object[] {42, 42L, "42", new BigDecimal("42.0"), (short) 42,
        42.0d}) {
      assertEquals(shards(expected), byParam.shards(hash, index -> value),
          value + " (" + value.getClass().getSimpleName() + ")");
    }
  }

  @Test void oneConditionServesManyParameterValues() {
    KeyCondition between = and(compare(0, Op.GE, param(0)), compare(0, Op.LT, param(1)));
    assertEquals(shards(1), between.shards(ranges, params(10, 20)));
    assertEquals(shards(0, 1), between.shards(ranges, params(5, 15)));
    assertEquals(shards(), between.shards(ranges, params(15, 15)));
    KeyCondition pairByParams = and(eqParam(0, 1), eqParam(1, 0));
    assertEquals(shards(291 % 4), pairByParams.shards(pair, params("EU", 1)));
  }

  @Test void nullValuesMatchNothing() {
    assertEquals(shards(), eqParam(0, 0).shards(hash, index -> null));
    assertEquals(shards(), eq(0, null).shards(ranges, NO_PARAMS));
    assertEquals(shards(), compare(0, Op.GE, literal(null)).shards(ranges, NO_PARAMS));
    assertEquals(shards(0), or(eq(0, 5), eqParam(0, 0)).shards(ranges, index -> null));
  }

  @Test void lessThanATruncatedTimestampIncludesTheMillisecondItStartsIn() {
    RangeRouter byTime = new RangeRouter(KeyType.TIMESTAMP, List.of(
        new RangeRouter.Partition(null, "2020-01-01 10:00:00", 0),
        new RangeRouter.Partition("2020-01-01 10:00:00", null, 1)), 2);
    // A row at 10:00:00.0003 is routed as 10:00:00.000, on shard 1, and is below 10:00:00.0005.
    assertEquals(shards(0, 1), compare(0, Op.LT, literal("2020-01-01 10:00:00.0005"))
        .shards(byTime, NO_PARAMS));
    assertEquals(shards(0), compare(0, Op.LT, literal("2020-01-01 10:00:00.000"))
        .shards(byTime, NO_PARAMS));
    assertEquals(shards(1), compare(0, Op.GT, literal("2020-01-01 10:00:00.0005"))
        .shards(byTime, NO_PARAMS));
  }

  @Test void hasParams() {
    assertFalse(any().hasParams());
    assertFalse(eq(0, 1).hasParams());
    assertFalse(restrict(0, KeyDomain.all()).hasParams());
    assertTrue(eqParam(0, 3).hasParams());
    assertTrue(and(eq(0, 1), or(any(), compare(0, Op.LT, param(0)))).hasParams());
    assertFalse(and(eq(0, 1), or(any(), eq(0, 2))).hasParams());
  }

  @Test void valuesThatDoNotFitTheKeyTypeAreRejectedByName() {
    assertIllegal("value 'abc' (String) is not a valid NUMBER",
        () -> eq(0, "abc").shards(hash, NO_PARAMS));
    assertIllegal("parameter ?2: value 'abc' (String) is not a valid NUMBER",
        () -> and(eq(0, 1), eqParam(0, 2)).shards(ranges, index -> "abc"));
    RangeRouter byDate = new RangeRouter(KeyType.DATE,
        List.of(new RangeRouter.Partition(null, null, 0)), 1);
    assertIllegal("value '1.5' (Double) is not a valid DATE",
        () -> compare(0, Op.LT, literal(1.5d)).shards(byDate, NO_PARAMS));
  }

  @Test void malformedConditionsAreRejected() {
    assertIllegal("key column 1 does not exist: the key has 1 column",
        () -> eq(1, 5).shards(ranges, NO_PARAMS));
    assertIllegal("key column 2 does not exist: the key has 2 columns",
        () -> restrict(2, KeyDomain.all()).shards(pair, NO_PARAMS));
    assertIllegal("key column must not be negative, got -1", () -> eq(-1, 5));
    assertIllegal("parameter index must not be negative, got -1", () -> param(-1));
  }

  private static IntFunction<Object> params(Object... values) {
    return index -> values[index];
  }

  private static BigDecimal bd(int value) {
    return BigDecimal.valueOf(value);
  }

  @Test void fixedColumnsAreThoseEqualityOrAFiniteDomainPins() {
    assertEquals(bits(), any().fixedColumns());
    assertEquals(bits(0), eqParam(0, 1).fixedColumns());
    assertEquals(bits(), compare(0, Op.GE, literal(3)).fixedColumns());
    assertEquals(bits(1), restrict(1, KeyDomain.points(List.of(1, 2, 3))).fixedColumns());
    assertEquals(bits(), restrict(1, KeyDomain.range(1, true, 5, false)).fixedColumns());
    // AND fixes what any term fixes; OR only what every branch fixes.
    assertEquals(bits(0, 1), and(eq(0, 1), eqParam(1, 0)).fixedColumns());
    assertEquals(bits(0), or(and(eq(0, 1), eq(1, 2)), eq(0, 3)).fixedColumns());
    assertEquals(bits(), or(eq(0, 1), compare(0, Op.LT, literal(3))).fixedColumns());
  }

  private static BitSet bits(int... columns) {
    BitSet bits = new BitSet();
    for (int column : columns) {
      bits.set(column);
    }
    return bits;
  }
}
