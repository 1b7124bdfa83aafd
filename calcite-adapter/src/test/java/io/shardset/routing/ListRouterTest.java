package io.shardset.routing;

import io.shardset.routing.ListRouter.Partition;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalInt;

import static io.shardset.routing.RoutingAsserts.assertIllegal;
import static io.shardset.routing.RoutingAsserts.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link ListRouter}. */
class ListRouterTest {
  /** The specification's ACCOUNTS table: EU and UK on shard 0, US and the rest on shard 1. */
  private final ListRouter accounts = new ListRouter(KeyType.STRING,
      List.of(new Partition(0, List.of("EU", "UK")), new Partition(1, List.of("US"))),
      OptionalInt.of(1), 2);

  /** No default: EU and UK on shard 0, US on shard 1, JP on shard 2, CA on shard 1 again. */
  private final ListRouter strict = new ListRouter(KeyType.STRING, List.of(
      new Partition(0, List.of("EU", "UK")), new Partition(1, List.of("US")),
      new Partition(2, List.of("JP")), new Partition(1, List.of("CA"))), OptionalInt.empty(), 3);

  @Test void shardOf() {
    assertEquals(OptionalInt.of(0), shardOf(accounts, "EU"));
    assertEquals(OptionalInt.of(0), shardOf(accounts, "UK"));
    assertEquals(OptionalInt.of(1), shardOf(accounts, "US"));
    assertEquals(OptionalInt.of(1), shardOf(accounts, "FR"));
    assertEquals(OptionalInt.of(1), shardOf(accounts, null));
    assertEquals(OptionalInt.of(1), shardOf(strict, "CA"));
    assertEquals(OptionalInt.of(2), shardOf(strict, "JP"));
    assertEquals(OptionalInt.empty(), shardOf(strict, "FR"));
    assertEquals(OptionalInt.empty(), shardOf(strict, "eu"));
    assertEquals(OptionalInt.empty(), shardOf(strict, null));
  }

  @Test void points() {
    assertEquals(shards(0), route(accounts, KeyDomain.point("EU")));
    assertEquals(shards(0), route(accounts, KeyDomain.points(List.of("EU", "UK"))));
    assertEquals(shards(0, 1), route(accounts, KeyDomain.points(List.of("EU", "US"))));
    assertEquals(shards(1), route(accounts, KeyDomain.point("FR")));
    assertEquals(shards(0, 1), route(accounts, KeyDomain.points(List.of("EU", "FR"))));
    assertEquals(shards(), route(strict, KeyDomain.point("FR")));
    assertEquals(shards(0), route(strict, KeyDomain.points(List.of("EU", "FR"))));
    assertEquals(shards(1, 2), route(strict, KeyDomain.points(List.of("CA", "JP"))));
  }

  @Test void notEqualAndNotIn() {
    KeyDomain notEu = except("EU");
    assertEquals("(-∞, 'EU') ∪ ('EU', +∞)", notEu.toString());
    assertEquals(shards(0, 1, 2), route(strict, notEu));
    assertEquals(shards(1, 2), route(strict, except("EU", "UK")));
    assertEquals(shards(0, 1), route(strict, except("JP")));
    assertEquals(shards(2), route(strict, except("CA", "EU", "UK", "US")));
    assertEquals(shards(1), route(accounts, except("EU", "UK")));
    assertEquals(shards(0, 1), route(accounts, except("US")));
  }

  @Test void rangesCountAsHoldingUnlistedValues() {
    KeyDomain aToF = KeyDomain.range("A", true, "F", true);
    assertEquals(shards(0, 1), route(accounts, aToF));
    assertEquals(shards(0, 1), route(strict, aToF));
    assertEquals(shards(0), route(strict, KeyDomain.range("D", true, "F", true)));
    assertEquals(shards(), route(strict, KeyDomain.range("EU", false, "JP", false)));
    assertEquals(shards(2), route(strict, KeyDomain.range("EU", false, "JP", true)));
    assertEquals(shards(1), route(accounts, KeyDomain.range("EU", false, "UK", false)));
  }

  @Test void nullGoesToTheDefaultShard() {
    assertEquals(shards(1), route(accounts, KeyDomain.nullOnly()));
    assertEquals(shards(0, 1), route(accounts, KeyDomain.point("EU").withNull(true)));
    assertEquals(shards(), route(strict, KeyDomain.nullOnly()));
    assertEquals(shards(0), route(strict, KeyDomain.point("EU").withNull(true)));
  }

  @Test void emptyAndWholeDomains() {
    assertEquals(shards(), route(accounts, KeyDomain.none()));
    assertEquals(shards(0, 1), route(accounts, KeyDomain.all()));
    assertEquals(shards(0, 1, 2), route(strict, KeyDomain.notNull()));
    ListRouter sparse = new ListRouter(KeyType.STRING, List.of(new Partition(2, List.of("X"))),
        OptionalInt.empty(), 4);
    assertEquals(shards(2), route(sparse, KeyDomain.all()));
  }

  @Test void valuesAreNormalizedWithTheKeyType() {
    ListRouter chars = new ListRouter(KeyType.CHAR,
        List.of(new Partition(0, List.of("EU  ")), new Partition(1, List.of("US"))),
        OptionalInt.empty(), 2);
    assertEquals(OptionalInt.of(0), shardOf(chars, "EU"));
    assertEquals(OptionalInt.of(1), shardOf(chars, "US   "));
    ListRouter numbers = new ListRouter(KeyType.NUMBER, List.of(
        new Partition(0, List.of(1, 2L)), new Partition(1, List.of(new BigDecimal("3.50")))),
        OptionalInt.of(2), 3);
    assertEquals(OptionalInt.of(0), shardOf(numbers, new BigDecimal("2.0")));
    assertEquals(OptionalInt.of(1), shardOf(numbers, 3.5d));
    assertEquals(OptionalInt.of(2), shardOf(numbers, 4));
    assertEquals(shards(0, 1), route(numbers, KeyDomain.points(
        List.of(new BigDecimal("1"), new BigDecimal("3.5")))));
  }

  @Test void valuesListedTwiceAreRejected() {
    assertIllegal("value 'EU' is listed for shard 0 and again for shard 1",
        () -> new ListRouter(KeyType.STRING, List.of(new Partition(0, List.of("EU", "UK")),
            new Partition(1, List.of("US", "EU"))), OptionalInt.empty(), 2));
    assertIllegal("value 'EU' is listed for shard 0 and again for shard 0",
        () -> new ListRouter(KeyType.STRING, List.of(new Partition(0, List.of("EU")),
            new Partition(0, List.of("EU"))), OptionalInt.empty(), 2));
    assertIllegal("value 42 is listed for shard 0 and again for shard 1",
        () -> new ListRouter(KeyType.NUMBER, List.of(new Partition(0, List.of(42)),
            new Partition(1, List.of(new BigDecimal("42.0")))), OptionalInt.empty(), 2));
    assertIllegal("value 'EU' is listed for shard 1 and again for shard 1",
        () -> new ListRouter(KeyType.CHAR, List.of(new Partition(1, List.of("EU", "EU  "))),
            OptionalInt.empty(), 2));
  }

  @Test void otherMistakesAreRejected() {
    List<Comparable<?>> withNull = new ArrayList<>(Arrays.asList("EU", null));
    assertIllegal("the list of shard 0 holds NULL, which only a default shard can take",
        () -> new Partition(0, withNull));
    assertIllegal("a list names shard 2, but the table's shards are 0 to 1",
        () -> new ListRouter(KeyType.STRING, List.of(new Partition(2, List.of("EU"))),
            OptionalInt.empty(), 2));
    assertIllegal("the default list names shard 5, but the table's shards are 0 to 1",
        () -> new ListRouter(KeyType.STRING, List.of(), OptionalInt.of(5), 2));
    assertIllegal("value 'x' (String) is not a valid NUMBER",
        () -> new ListRouter(KeyType.NUMBER, List.of(new Partition(0, List.of("x"))),
            OptionalInt.empty(), 1));
  }

  /** Every value except these: NOT IN. */
  private static KeyDomain except(String... values) {
    KeyDomain domain = KeyDomain.notNull();
    for (String value : values) {
      domain = domain.intersect(KeyDomain.range(null, false, value, false)
          .union(KeyDomain.range(value, false, null, false)));
    }
    return domain;
  }

  private static BitSet route(ListRouter router, KeyDomain domain) {
    return router.shardsFor(List.of(domain));
  }

  private static OptionalInt shardOf(ListRouter router, Object value) {
    return router.shardOf(Arrays.asList(value));
  }
}
