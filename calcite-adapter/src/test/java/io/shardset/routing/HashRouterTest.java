package io.shardset.routing;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.IntStream;

import static io.shardset.routing.RoutingAsserts.assertIllegal;
import static io.shardset.routing.RoutingAsserts.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link HashRouter}. */
class HashRouterTest {
  private static final long QUARTER = 1L << 30;
  private static final List<KeyType> NUMBER = List.of(KeyType.NUMBER);
  private static final List<KeyType> NUMBER_STRING = List.of(KeyType.NUMBER, KeyType.STRING);

  /**
   * Four shards, each holding a quarter of the hash space, so that a key's shard is its hash
   * divided by 2^30. Hashes used below: NUMBER 1 → 304476159 (shard 0), 2 → 2334965317 (2),
   * 3 → 4230713043 (3), 5 → 357051366 (0); (1, 'EU') → 2607727147 (2), (1, 'US') → 953120079 (0),
   * (2, 'EU') → 2860964022 (2), (2, 'US') → 153579474 (0); NULL → 0 (0).
   */
  private static final ChunkMap QUARTERS = ChunkMap.of(List.of(
      new ChunkMap.Entry(0, QUARTER, 0), new ChunkMap.Entry(QUARTER, 2 * QUARTER, 1),
      new ChunkMap.Entry(2 * QUARTER, 3 * QUARTER, 2),
      new ChunkMap.Entry(3 * QUARTER, ChunkMap.HASH_SPACE, 3)));

  private final HashRouter single = new HashRouter(NUMBER, QUARTERS, 4);
  private final HashRouter pair = new HashRouter(NUMBER_STRING, QUARTERS, 4);

  @Test void shardOfFollowsTheChunkMap() {
    assertEquals(OptionalInt.of(0), single.shardOf(List.of(1)));
    assertEquals(OptionalInt.of(2), single.shardOf(List.of(2L)));
    assertEquals(OptionalInt.of(3), single.shardOf(List.of(new BigDecimal("3.00"))));
    assertEquals(OptionalInt.of(3), single.shardOf(List.of("3")));
    assertEquals(OptionalInt.of(2), pair.shardOf(List.of(1, "EU")));
    assertEquals(OptionalInt.of(0), pair.shardOf(List.of(1, "US")));
  }

  @Test void nullKeysHashToo() {
    assertEquals(OptionalInt.of(0), single.shardOf(Arrays.asList((Object) null)));
    // (1, NULL) hashes to 2346234248.
    assertEquals(OptionalInt.of(2), pair.shardOf(Arrays.asList(1, null)));
  }

  @Test void theDefaultPlacementOfTheSpecification() {
    HashRouter router = new HashRouter(NUMBER, ChunkMap.defaultPlacement(480, 4), 4);
    assertEquals(OptionalInt.of(34 % 4), router.shardOf(List.of(1L)));
    assertEquals(OptionalInt.of(357 % 4), router.shardOf(List.of(42)));
    assertEquals(OptionalInt.of(291 % 4),
        new HashRouter(NUMBER_STRING, ChunkMap.defaultPlacement(480, 4), 4)
            .shardOf(List.of(1L, "EU")));
  }

  @Test void pointsRouteToTheirShards() {
    assertEquals(shards(0), single.shardsFor(List.of(domain(1))));
    assertEquals(shards(0), single.shardsFor(List.of(domain(1, 5))));
    assertEquals(shards(0, 2, 3), single.shardsFor(List.of(domain(1, 2, 3, 5))));
    assertEquals(shards(2), single.shardsFor(List.of(KeyDomain.point(new BigDecimal("2.0")))));
  }

  @Test void nullIsOneMorePoint() {
    assertEquals(shards(0), single.shardsFor(List.of(KeyDomain.nullOnly())));
    assertEquals(shards(0, 3), single.shardsFor(List.of(domain(3).withNull(true))));
  }

  @Test void rangesAndEmptyDomains() {
    assertEquals(shards(0, 1, 2, 3),
        single.shardsFor(List.of(KeyDomain.range(bd(1), true, bd(2), true))));
    assertEquals(shards(0, 1, 2, 3), single.shardsFor(List.of(KeyDomain.all())));
    assertEquals(shards(0, 1, 2, 3), single.shardsFor(List.of(KeyDomain.notNull())));
    assertEquals(shards(), single.shardsFor(List.of(KeyDomain.none())));
  }

  @Test void severalColumnsHashEveryCombinationOfPoints() {
    KeyDomain regions = KeyDomain.points(List.of("EU", "US"));
    assertEquals(shards(0, 2), pair.shardsFor(List.of(domain(1, 2), regions)));
    assertEquals(shards(2), pair.shardsFor(List.of(domain(1, 2), KeyDomain.point("EU"))));
    assertEquals(shards(0), pair.shardsFor(List.of(domain(2), KeyDomain.point("US"))));
    assertEquals(shards(0, 2),
        pair.shardsFor(List.of(domain(1), KeyDomain.point("US").withNull(true))));
  }

  @Test void severalColumnsWithARangeOrAnUnknownColumnReachEveryShard() {
    assertEquals(shards(0, 1, 2, 3), pair.shardsFor(
        List.of(domain(1), KeyDomain.range("A", true, "F", false))));
    assertEquals(shards(0, 1, 2, 3), pair.shardsFor(List.of(domain(1), KeyDomain.all())));
    assertEquals(shards(), pair.shardsFor(
        List.of(KeyDomain.range(bd(0), true, null, false), KeyDomain.none())));
  }

  @Test void tooManyCombinationsReachEveryShard() {
    // Every key lives on shard 0: only giving up on hashing can name shard 1.
    HashRouter router = new HashRouter(NUMBER_STRING,
        ChunkMap.of(List.of(new ChunkMap.Entry(0, ChunkMap.HASH_SPACE, 0))), 2);
    assertEquals(shards(0), router.shardsFor(List.of(numbers(64), texts(64))));
    assertEquals(shards(0, 1), router.shardsFor(List.of(numbers(64), texts(65))));
    assertEquals(shards(0, 1),
        router.shardsFor(List.of(numbers(64), texts(64).withNull(true))));
  }

  @Test void misconfigurationIsRejected() {
    assertIllegal("chunk map entry [3221225472, 4294967296) names shard 3, but the table's"
        + " shards are 0 to 2", () -> new HashRouter(NUMBER, QUARTERS, 3));
    assertIllegal("a hash-sharded table needs at least one key column",
        () -> new HashRouter(List.of(), QUARTERS, 4));
    assertIllegal("a table needs at least one shard, got 0",
        () -> new HashRouter(NUMBER, QUARTERS, 0));
    assertIllegal("expected 1 key value, one per key column, got 2",
        () -> single.shardOf(List.of(1, 2)));
    assertIllegal("expected 2 key domains, one per key column, got 1",
        () -> pair.shardsFor(List.of(KeyDomain.all())));
    assertIllegal("value 'x' (String) is not a valid NUMBER", () -> single.shardOf(List.of("x")));
  }

  private static KeyDomain domain(int... values) {
    List<BigDecimal> points = new ArrayList<>();
    for (int value : values) {
      points.add(bd(value));
    }
    return KeyDomain.points(points);
  }

  private static KeyDomain numbers(int count) {
    return domain(IntStream.range(0, count).toArray());
  }

  private static KeyDomain texts(int count) {
    List<String> points = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      points.add("t" + i);
    }
    return KeyDomain.points(points);
  }

  private static BigDecimal bd(int value) {
    return BigDecimal.valueOf(value);
  }
}
