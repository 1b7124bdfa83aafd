package io.shardset.routing;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link ChunkMoves}: whole ranges move, as few as the new balance needs. */
class ChunkMovesTest {
  private static final ChunkMap FOUR = ChunkMap.defaultPlacement(480, 4);

  /** Chunks per shard, counting whole default chunks. */
  private static Map<Integer, Long> chunksPerShard(ChunkMap map) {
    return map.entries().stream().collect(Collectors.groupingBy(ChunkMap.Entry::shard,
        TreeMap::new, Collectors.counting()));
  }

  @Test void aFifthShardTakesAFifthEvenlyFromEveryShard() {
    List<ChunkMoves.Move> moves = ChunkMoves.addShard(FOUR, 4);
    assertEquals(96, moves.size());
    assertEquals(0.2, ChunkMoves.fraction(moves), 1e-6);
    Map<Integer, Long> given = moves.stream().collect(Collectors.groupingBy(
        ChunkMoves.Move::source, TreeMap::new, Collectors.counting()));
    assertEquals(Map.of(0, 24L, 1, 24L, 2, 24L, 3, 24L), given);
    ChunkMap five = ChunkMoves.apply(FOUR, moves);
    assertEquals(Map.of(0, 96L, 1, 96L, 2, 96L, 3, 96L, 4, 96L), chunksPerShard(five));
  }

  @Test void onlyTheMovedRangesChangeShard() {
    List<ChunkMoves.Move> moves = ChunkMoves.addShard(FOUR, 4);
    ChunkMap five = ChunkMoves.apply(FOUR, moves);
    for (long hash = 0; hash < ChunkMap.HASH_SPACE; hash += 9_999_991L) {
      final long h = hash;
      boolean moved = moves.stream().anyMatch(m -> m.from() <= h && h < m.to());
      assertEquals(moved, FOUR.shardOf(hash) != five.shardOf(hash), "hash " + hash);
    }
  }

  @Test void aLeavingShardSpreadsItsRangesOverTheOthers() {
    ChunkMap five = ChunkMoves.apply(FOUR, ChunkMoves.addShard(FOUR, 4));
    List<ChunkMoves.Move> moves = ChunkMoves.removeShard(five, 2);
    assertEquals(96, moves.size());
    assertEquals(0.2, ChunkMoves.fraction(moves), 1e-6);
    assertTrue(moves.stream().allMatch(m -> m.source() == 2));
    ChunkMap four = ChunkMoves.apply(five, moves);
    assertEquals(Map.of(0, 120L, 1, 120L, 3, 120L, 4, 120L), chunksPerShard(four));
  }

  @Test void splittingARangeMovesNoHash() {
    ChunkMap.Entry first = FOUR.entries().get(0);
    long middle = (first.from() + first.to()) / 2;
    ChunkMap split = ChunkMoves.splitRange(FOUR, first.from(), middle);
    assertEquals(481, split.entries().size());
    for (long hash = 0; hash < ChunkMap.HASH_SPACE; hash += 7_777_777L) {
      assertEquals(FOUR.shardOf(hash), split.shardOf(hash));
    }
    assertEquals(FOUR.shardOf(middle), split.shardOf(middle));
    assertEquals("cannot split [0, 8947849) at 0: the point must lie strictly inside the range",
        assertThrows(IllegalArgumentException.class,
            () -> ChunkMoves.splitRange(FOUR, 0, 0)).getMessage());
  }

  @Test void oneRangeMovesAndAWrongMoveIsRefused() {
    ChunkMap.Entry third = FOUR.entries().get(2);
    ChunkMoves.Move move = ChunkMoves.moveRange(FOUR, third.from(), 0);
    assertEquals(new ChunkMoves.Move(third.from(), third.to(), 2, 0), move);
    assertEquals(0, ChunkMoves.apply(FOUR, List.of(move)).shardOf(third.from()));
    assertEquals("the map holds [17895698, 26843546) on shard 2, not [17895698, 26843546)"
            + " on shard 1",
        assertThrows(IllegalArgumentException.class, () -> ChunkMoves.apply(FOUR,
            List.of(new ChunkMoves.Move(third.from(), third.to(), 1, 0)))).getMessage());
    assertEquals("no hash range starts at 5", assertThrows(IllegalArgumentException.class,
        () -> ChunkMoves.moveRange(FOUR, 5, 0)).getMessage());
  }

  @Test void consistentHashingMovesAFifthWhereModuloMovesMostRows() {
    // The same 100,000 keys: hash % 4 -> hash % 5 moves about 4/5 of them.
    ChunkMap five = ChunkMoves.apply(FOUR, ChunkMoves.addShard(FOUR, 4));
    HashRouter before = new HashRouter(List.of(KeyType.NUMBER), FOUR, 4);
    HashRouter after = new HashRouter(List.of(KeyType.NUMBER), five, 5);
    int chunkMoved = 0;
    int moduloMoved = 0;
    for (long key = 1; key <= 100_000; key++) {
      if (before.shardOf(List.of(key)).getAsInt() != after.shardOf(List.of(key)).getAsInt()) {
        chunkMoved++;
      }
      long hash = KeyHasher.hash(KeyHasher.keyBytes(List.of(KeyType.NUMBER), List.of(key)));
      if (hash % 4 != hash % 5) {
        moduloMoved++;
      }
    }
    assertEquals(0.20, chunkMoved / 100_000.0, 0.01);
    assertEquals(0.80, moduloMoved / 100_000.0, 0.01);
  }
}
