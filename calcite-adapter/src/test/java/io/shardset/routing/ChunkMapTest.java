package io.shardset.routing;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import static io.shardset.routing.RoutingAsserts.assertIllegal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link ChunkMap}: chunk arithmetic, default placement and explicit chunk maps. */
class ChunkMapTest {
  private static final long SPACE = 4_294_967_296L;
  private static final BigInteger BIG_SPACE = BigInteger.TWO.pow(32);

  @Test void hashSpaceIsTwoToThe32() {
    assertEquals(SPACE, ChunkMap.HASH_SPACE);
  }

  @Test void firstChunkOf120() {
    assertEquals(0L, ChunkMap.chunkStart(0, 120));
    assertEquals(35_791_395L, ChunkMap.chunkStart(1, 120));
    assertEquals(new ChunkMap.Entry(0, 35_791_395L, 0),
        ChunkMap.defaultPlacement(120, 4).entries().get(0));
  }

  @Test void chunkStartAndChunkOfAgreeForEveryChunk() {
    for (int chunks : new int[] {1, 7, 120, 480, 4096}) {
      for (int chunk = 0; chunk < chunks; chunk++) {
        long start = ChunkMap.chunkStart(chunk, chunks);
        long end = ChunkMap.chunkStart(chunk + 1, chunks);
        assertEquals(ceilStart(chunk, chunks), start, chunk + " of " + chunks);
        assertTrue(start < end, chunk + " of " + chunks + " is empty");
        assertEquals(chunk, ChunkMap.chunkOf(start, chunks), chunk + " of " + chunks);
        assertEquals(chunk, ChunkMap.chunkOf(end - 1, chunks), chunk + " of " + chunks);
        if (start > 0) {
          assertEquals(chunk - 1, ChunkMap.chunkOf(start - 1, chunks), chunk + " of " + chunks);
        }
      }
      assertEquals(SPACE, ChunkMap.chunkStart(chunks, chunks));
      assertEquals(chunks - 1, ChunkMap.chunkOf(SPACE - 1, chunks));
      assertEquals(0, ChunkMap.chunkOf(0, chunks));
    }
  }

  @Test void theLargestChunkCountDoesNotOverflow() {
    int chunks = Integer.MAX_VALUE;
    assertEquals(chunks - 1, ChunkMap.chunkOf(SPACE - 1, chunks));
    assertEquals(SPACE, ChunkMap.chunkStart(chunks, chunks));
    for (int chunk : new int[] {1, 2, chunks / 2, chunks - 2, chunks - 1}) {
      long start = ChunkMap.chunkStart(chunk, chunks);
      assertEquals(ceilStart(chunk, chunks), start);
      assertEquals(chunk, ChunkMap.chunkOf(start, chunks));
      assertEquals(chunk - 1, ChunkMap.chunkOf(start - 1, chunks));
    }
  }

  @Test void argumentsOutsideTheirRangeAreRejected() {
    assertIllegal("hash 4294967296 is outside the hash space [0, 4294967296)",
        () -> ChunkMap.chunkOf(SPACE, 120));
    assertIllegal("hash -1 is outside the hash space [0, 4294967296)",
        () -> ChunkMap.chunkOf(-1, 120));
    assertIllegal("the number of chunks must be at least 1, got 0",
        () -> ChunkMap.chunkOf(5, 0));
    assertIllegal("chunk 121 is outside 0 to 120 (the number of chunks)",
        () -> ChunkMap.chunkStart(121, 120));
    assertIllegal("hash 4294967296 is outside the hash space [0, 4294967296)",
        () -> ChunkMap.defaultPlacement(4, 2).shardOf(SPACE));
    assertIllegal("a chunk map has at most 1048576 chunks, got 2000000000",
        () -> ChunkMap.defaultPlacement(2_000_000_000, 2));
  }

  @Test void defaultPlacementPutsChunkCOnShardCModN() {
    ChunkMap map = ChunkMap.defaultPlacement(7, 3);
    List<ChunkMap.Entry> entries = map.entries();
    assertEquals(7, entries.size());
    for (int chunk = 0; chunk < 7; chunk++) {
      ChunkMap.Entry entry = entries.get(chunk);
      assertEquals(new ChunkMap.Entry(ChunkMap.chunkStart(chunk, 7),
          ChunkMap.chunkStart(chunk + 1, 7), chunk % 3), entry);
      assertEquals(chunk % 3, map.shardOf(entry.from()));
      assertEquals(chunk % 3, map.shardOf(entry.to() - 1));
    }
    assertEquals(List.of(0, 1, 2, 0, 1, 2, 0),
        entries.stream().map(ChunkMap.Entry::shard).toList());
  }

  @Test void explicitEntriesNeedNotAlignWithChunksNorComeInOrder() {
    ChunkMap map = ChunkMap.of(List.of(
        new ChunkMap.Entry(3_000_000_000L, SPACE, 1),
        new ChunkMap.Entry(0, 1000, 2),
        new ChunkMap.Entry(1000, 3_000_000_000L, 0)));
    assertEquals(List.of(new ChunkMap.Entry(0, 1000, 2),
        new ChunkMap.Entry(1000, 3_000_000_000L, 0),
        new ChunkMap.Entry(3_000_000_000L, SPACE, 1)), map.entries());
    assertEquals(2, map.shardOf(0));
    assertEquals(2, map.shardOf(999));
    assertEquals(0, map.shardOf(1000));
    assertEquals(0, map.shardOf(2_999_999_999L));
    assertEquals(1, map.shardOf(3_000_000_000L));
    assertEquals(1, map.shardOf(SPACE - 1));
  }

  @Test void splittingAChunkMovesHalfOfItsHashes() {
    List<ChunkMap.Entry> entries = new ArrayList<>(
        ChunkMap.defaultPlacement(120, 2).entries());
    ChunkMap.Entry chunk5 = entries.remove(5);
    long middle = chunk5.from() + 1000;
    entries.add(new ChunkMap.Entry(chunk5.from(), middle, 1));
    entries.add(new ChunkMap.Entry(middle, chunk5.to(), 0));
    ChunkMap map = ChunkMap.of(entries);
    assertEquals(121, map.entries().size());
    assertEquals(1, map.shardOf(chunk5.from()));
    assertEquals(1, map.shardOf(middle - 1));
    assertEquals(0, map.shardOf(middle));
    assertEquals(0, map.shardOf(chunk5.to() - 1));
    assertEquals(0, map.shardOf(chunk5.to()));
  }

  @Test void oneEntryCoveringEverything() {
    ChunkMap map = ChunkMap.of(List.of(new ChunkMap.Entry(0, SPACE, 3)));
    assertEquals(3, map.shardOf(0));
    assertEquals(3, map.shardOf(SPACE - 1));
  }

  @Test void mapsThatDoNotCoverTheHashSpaceExactlyAreRejected() {
    assertIllegal("[100, 250) overlaps [0, 150)", () -> ChunkMap.of(List.of(
        new ChunkMap.Entry(100, 250, 1), new ChunkMap.Entry(0, 150, 0),
        new ChunkMap.Entry(250, SPACE, 0))));
    assertIllegal("[0, 20) overlaps [0, 10)", () -> ChunkMap.of(List.of(
        new ChunkMap.Entry(0, 20, 1), new ChunkMap.Entry(0, 10, 0),
        new ChunkMap.Entry(20, SPACE, 0))));
    assertIllegal("gap: nothing covers [150, 200)", () -> ChunkMap.of(List.of(
        new ChunkMap.Entry(0, 150, 0), new ChunkMap.Entry(200, SPACE, 1))));
    assertIllegal("nothing covers [0, 100)", () -> ChunkMap.of(List.of(
        new ChunkMap.Entry(100, SPACE, 0))));
    assertIllegal("nothing covers [4000000000, 4294967296)", () -> ChunkMap.of(List.of(
        new ChunkMap.Entry(0, 4_000_000_000L, 0))));
    assertIllegal("nothing covers [0, 4294967296)", () -> ChunkMap.of(List.of()));
  }

  @Test void malformedEntriesAreRejected() {
    assertIllegal("[10, 10) is empty: from must be less than to",
        () -> new ChunkMap.Entry(10, 10, 0));
    assertIllegal("[0, 4294967297) is outside the hash space [0, 4294967296)",
        () -> new ChunkMap.Entry(0, SPACE + 1, 0));
    assertIllegal("[-5, 10) is outside the hash space [0, 4294967296)",
        () -> new ChunkMap.Entry(-5, 10, 0));
    assertIllegal("[0, 10) has a negative shard -1", () -> new ChunkMap.Entry(0, 10, -1));
  }

  /** ceil(chunk * 2^32 / chunks) in arbitrary precision. */
  private static long ceilStart(int chunk, int chunks) {
    BigInteger[] quotient = BigInteger.valueOf(chunk).multiply(BIG_SPACE)
        .divideAndRemainder(BigInteger.valueOf(chunks));
    return quotient[0].longValueExact() + (quotient[1].signum() > 0 ? 1 : 0);
  }
}
