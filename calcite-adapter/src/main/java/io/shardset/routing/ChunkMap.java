package io.shardset.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** Placement of the 32-bit hash space on shards: half-open hash ranges, each on one shard. */
public final class ChunkMap {
  /** The number of hash values: hashes lie in [0, 2^32). */
  public static final long HASH_SPACE = 1L << 32;
  /**
   * The most chunks (and chunk map entries) a placement may have: 2^20. The map holds one
   * entry per chunk, so this keeps it to tens of megabytes; Oracle Sharding's default is 120
   * chunks per shard, which this allows for 8738 shards.
   */
  public static final int MAX_CHUNKS = 1 << 20;

  private final List<Entry> entries;
  private final long[] starts;
  private final int[] shards;
  /** Computed once: co-location checks compare the maps of two tables while planning, and a
   * map has up to 2^20 entries. */
  private final int hash;

  /** The hashes [from, to) live on shard {@code shard}. */
  public record Entry(long from, long to, int shard) {
    public Entry {
      if (from < 0 || to > HASH_SPACE) {
        throw new IllegalArgumentException(
            range(from, to) + " is outside the hash space " + range(0, HASH_SPACE));
      }
      if (from >= to) {
        throw new IllegalArgumentException(
            range(from, to) + " is empty: from must be less than to");
      }
      if (shard < 0) {
        throw new IllegalArgumentException(range(from, to) + " has a negative shard " + shard);
      }
    }

    @Override public String toString() {
      return range(from, to) + " on shard " + shard;
    }
  }

  private ChunkMap(List<Entry> sortedEntries) {
    this.entries = List.copyOf(sortedEntries);
    this.starts = new long[entries.size()];
    this.shards = new int[entries.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = entries.get(i).from();
      shards[i] = entries.get(i).shard();
    }
    this.hash = entries.hashCode();
  }

  /** The chunk holding a hash: floor(hash * chunks / 2^32). */
  public static int chunkOf(long hash, int chunks) {
    checkHash(hash);
    checkChunks(chunks);
    // hash < 2^32 and chunks < 2^31, so the product stays below 2^63.
    return (int) ((hash * chunks) >>> 32);
  }

  /** The first hash of a chunk: ceil(chunk * 2^32 / chunks); chunkStart(chunks, chunks) is 2^32. */
  public static long chunkStart(int chunk, int chunks) {
    checkChunks(chunks);
    if (chunk < 0 || chunk > chunks) {
      throw new IllegalArgumentException(
          "chunk " + chunk + " is outside 0 to " + chunks + " (the number of chunks)");
    }
    // chunk * 2^32 + chunks - 1 < 2^63 because chunk <= chunks < 2^31.
    return ((long) chunk * HASH_SPACE + chunks - 1) / chunks;
  }

  /** The default placement: chunk c on shard c mod shardCount, one entry per chunk. */
  public static ChunkMap defaultPlacement(int chunks, int shardCount) {
    checkChunks(chunks);
    if (chunks > MAX_CHUNKS) {
      throw new IllegalArgumentException(
          "a chunk map has at most " + MAX_CHUNKS + " chunks, got " + chunks);
    }
    ShardSets.checkShardCount(shardCount);
    List<Entry> entries = new ArrayList<>(chunks);
    for (int chunk = 0; chunk < chunks; chunk++) {
      entries.add(
          new Entry(chunkStart(chunk, chunks), chunkStart(chunk + 1, chunks), chunk % shardCount));
    }
    return new ChunkMap(entries);
  }

  /**
   * An explicit placement. Entries may come in any order, need not align with chunk boundaries,
   * and must together cover [0, 2^32) exactly once.
   *
   * @throws IllegalArgumentException naming the overlapping entries or the uncovered hashes
   */
  public static ChunkMap of(List<Entry> entries) {
    List<Entry> sorted = new ArrayList<>(Objects.requireNonNull(entries, "entries"));
    sorted.sort(Comparator.comparingLong(Entry::from).thenComparingLong(Entry::to));
    long covered = 0;
    Entry previous = null;
    for (Entry entry : sorted) {
      if (entry.from() < covered) {
        throw new IllegalArgumentException(range(entry.from(), entry.to()) + " overlaps "
            + range(previous.from(), previous.to()));
      }
      if (entry.from() > covered) {
        throw new IllegalArgumentException((previous == null ? "" : "gap: ")
            + "nothing covers " + range(covered, entry.from()));
      }
      covered = entry.to();
      previous = entry;
    }
    if (covered < HASH_SPACE) {
      throw new IllegalArgumentException("nothing covers " + range(covered, HASH_SPACE));
    }
    return new ChunkMap(sorted);
  }

  /** The shard holding a hash. */
  public int shardOf(long hash) {
    checkHash(hash);
    int index = Arrays.binarySearch(starts, hash);
    // Not found: the insertion point is one past the entry whose range holds the hash.
    return shards[index >= 0 ? index : -index - 2];
  }

  /** The entries, sorted by {@code from}. */
  public List<Entry> entries() {
    return entries;
  }

  @Override public boolean equals(Object o) {
    // The entries cover every hash without gaps, so their starts and shards say all of them;
    // comparing the two arrays is much cheaper than comparing entry objects.
    return o == this || o instanceof ChunkMap that && hash == that.hash
        && Arrays.equals(starts, that.starts) && Arrays.equals(shards, that.shards);
  }

  @Override public int hashCode() {
    return hash;
  }

  @Override public String toString() {
    return "ChunkMap" + entries;
  }

  private static String range(long from, long to) {
    return "[" + from + ", " + to + ")";
  }

  private static void checkHash(long hash) {
    if (hash < 0 || hash >= HASH_SPACE) {
      throw new IllegalArgumentException(
          "hash " + hash + " is outside the hash space " + range(0, HASH_SPACE));
    }
  }

  private static void checkChunks(int chunks) {
    if (chunks < 1) {
      throw new IllegalArgumentException("the number of chunks must be at least 1, got " + chunks);
    }
  }
}
