package io.shardset.routing;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalInt;

import static io.shardset.routing.RoutingAsserts.shards;
import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link CompositeRouter}: placement computed independently with the spec's formula. */
class CompositeRouterTest {
  /** Shardspace "fast": table shards 0 and 1, 240 chunks. */
  private static final int FAST_CHUNKS = 240;
  /** Shardspace "slow": table shards 2, 3 and 4, 360 chunks. */
  private static final int SLOW_CHUNKS = 360;

  /** Sets gold ('gld', fast), silver ('slv', slow) and the default (slow). */
  private final CompositeRouter byClass = new CompositeRouter(
      new ListRouter(KeyType.STRING, List.of(new ListRouter.Partition(0, List.of("gld")),
          new ListRouter.Partition(1, List.of("slv"))), OptionalInt.of(2), 3),
      List.of(0, 1, 1), spaces(), 5);

  /** Sets old (before 2020, slow) and new (from 2020, fast). */
  private final CompositeRouter byDay = new CompositeRouter(
      new RangeRouter(KeyType.DATE, List.of(
          new RangeRouter.Partition(null, LocalDate.of(2020, 1, 1), 0),
          new RangeRouter.Partition(LocalDate.of(2020, 1, 1), null, 1)), 2),
      List.of(1, 0), spaces(), 5);

  private static List<CompositeRouter.Space> spaces() {
    return List.of(
        new CompositeRouter.Space(new HashRouter(List.of(KeyType.NUMBER),
            ChunkMap.defaultPlacement(FAST_CHUNKS, 2), 2), List.of(0, 1)),
        new CompositeRouter.Space(new HashRouter(List.of(KeyType.NUMBER),
            ChunkMap.defaultPlacement(SLOW_CHUNKS, 3), 3), List.of(2, 3, 4)));
  }

  private static int fast(long key) {
    return shardOfLong(key, FAST_CHUNKS, 2);
  }

  private static int slow(long key) {
    return 2 + shardOfLong(key, SLOW_CHUNKS, 3);
  }

  private static KeyDomain points(Object... values) {
    return KeyDomain.points(Arrays.stream(values).map(v -> (Comparable<?>) KeyType.NUMBER
        .normalize(v)).toList());
  }

  @Test void keyTypesArePartitionColumnThenShardKey() {
    assertEquals(List.of(KeyType.STRING, KeyType.NUMBER), byClass.keyTypes());
    assertEquals(5, byClass.shardCount());
  }

  @Test void shardOfHashesWithinTheSetsShardspace() {
    for (long key = 1; key <= 50; key++) {
      assertEquals(OptionalInt.of(fast(key)), byClass.shardOf(List.of("gld", key)));
      assertEquals(OptionalInt.of(slow(key)), byClass.shardOf(List.of("slv", key)));
      assertEquals(OptionalInt.of(slow(key)), byClass.shardOf(Arrays.asList(null, key)));
      assertEquals(OptionalInt.of(slow(key)), byClass.shardOf(List.of("other", key)));
    }
    assertEquals(OptionalInt.of(fast(7)), byDay.shardOf(List.of("2020-01-01", 7)));
    assertEquals(OptionalInt.of(slow(7)), byDay.shardOf(List.of("2019-12-31", 7)));
    assertEquals(OptionalInt.empty(), byDay.shardOf(Arrays.asList(null, 7)));
  }

  @Test void pinnedPlacements() {
    // Worked out by hand from the spec: CRC-32 of the 8 big-endian bytes of 1 is 304476159.
    // Chunk floor(304476159 * 240 / 2^32) = 17 lives on fast's shard 17 mod 2 = 1; chunk
    // floor(304476159 * 360 / 2^32) = 25 on slow's shard 25 mod 3 = 1, table shard 3.
    assertEquals(OptionalInt.of(1), byClass.shardOf(List.of("gld", 1L)));
    assertEquals(OptionalInt.of(3), byClass.shardOf(List.of("slv", 1L)));
  }

  @Test void partitionValueAloneReachesItsShardspace() {
    assertEquals(shards(0, 1),
        byClass.shardsFor(List.of(KeyDomain.point("gld"), KeyDomain.all())));
    assertEquals(shards(2, 3, 4),
        byClass.shardsFor(List.of(KeyDomain.point("slv"), KeyDomain.all())));
    assertEquals(shards(2, 3, 4),
        byClass.shardsFor(List.of(KeyDomain.nullOnly(), KeyDomain.all())));
    assertEquals(shards(0, 1, 2, 3, 4),
        byClass.shardsFor(List.of(KeyDomain.points(List.of("gld", "slv")), KeyDomain.all())));
  }

  @Test void bothLevelsReachOneShard() {
    assertEquals(shards(fast(7)), byClass.shardsFor(List.of(KeyDomain.point("gld"),
        points(7))));
    assertEquals(shards(slow(7)), byClass.shardsFor(List.of(KeyDomain.point("zzz"),
        points(7))));
    BitSet twoKeys = shards(fast(7), fast(8));
    assertEquals(twoKeys, byClass.shardsFor(List.of(KeyDomain.point("gld"), points(7, 8))));
  }

  @Test void shardKeyAloneReachesOneShardPerShardspace() {
    assertEquals(shards(fast(7), slow(7)),
        byClass.shardsFor(List.of(KeyDomain.all(), points(7))));
  }

  @Test void rangesOfThePartitionColumn() {
    KeyDomain from2021 = KeyDomain.range(KeyType.DATE.normalize("2021-01-01"), true, null,
        false);
    assertEquals(shards(0, 1), byDay.shardsFor(List.of(from2021, KeyDomain.all())));
    assertEquals(shards(fast(9)), byDay.shardsFor(List.of(from2021, points(9))));
    KeyDomain before2020 = KeyDomain.range(null, false, KeyType.DATE.normalize("2020-01-01"),
        false);
    assertEquals(shards(2, 3, 4), byDay.shardsFor(List.of(before2020, KeyDomain.all())));
    assertEquals(shards(fast(9), slow(9)), byDay.shardsFor(List.of(KeyDomain.all(),
        points(9))));
  }

  @Test void emptyDomainsReachNoShard() {
    assertEquals(shards(), byClass.shardsFor(List.of(KeyDomain.none(), KeyDomain.all())));
    assertEquals(shards(), byClass.shardsFor(List.of(KeyDomain.point("gld"),
        KeyDomain.none())));
  }

  @Test void placesAlike() {
    CompositeRouter twin = new CompositeRouter(
        new ListRouter(KeyType.STRING, List.of(new ListRouter.Partition(0, List.of("gld")),
            new ListRouter.Partition(1, List.of("slv"))), OptionalInt.of(2), 3),
        List.of(0, 1, 1), spaces(), 5);
    assertTrue(byClass.placesAlike(twin));
    CompositeRouter silverFast = new CompositeRouter(
        new ListRouter(KeyType.STRING, List.of(new ListRouter.Partition(0, List.of("gld")),
            new ListRouter.Partition(1, List.of("slv"))), OptionalInt.of(2), 3),
        List.of(0, 0, 1), spaces(), 5);
    assertFalse(byClass.placesAlike(silverFast));
    assertFalse(byClass.placesAlike(byDay));
  }

  @Test void spaceHolding() {
    assertTrue(byClass.spaceHolding(shards(0, 1)).isPresent());
    assertEquals(List.of(2, 3, 4), byClass.spaceHolding(shards(3)).orElseThrow().tableShards());
    assertFalse(byClass.spaceHolding(shards(1, 2)).isPresent());
  }
}
