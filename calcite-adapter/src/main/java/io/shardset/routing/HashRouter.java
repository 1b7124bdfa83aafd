package io.shardset.routing;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Routes by consistent hash over chunks (the specification's system-managed sharding): the CRC-32
 * of the key's canonical bytes picks a hash range of the chunk map, which names the shard.
 */
public final class HashRouter implements ShardRouter {
  /** More key combinations than this are not hashed one by one: every shard is scanned instead. */
  public static final int MAX_POINT_COMBINATIONS = 4096;

  private final List<KeyType> keyTypes;
  private final ChunkMap chunkMap;
  private final int shardCount;

  public HashRouter(List<KeyType> keyTypes, ChunkMap chunkMap, int shardCount) {
    this.keyTypes = List.copyOf(keyTypes);
    this.chunkMap = Objects.requireNonNull(chunkMap, "chunkMap");
    this.shardCount = ShardSets.checkShardCount(shardCount);
    if (this.keyTypes.isEmpty()) {
      throw new IllegalArgumentException("a hash-sharded table needs at least one key column");
    }
    for (ChunkMap.Entry entry : chunkMap.entries()) {
      ShardSets.checkShard(entry.shard(), shardCount,
          () -> "chunk map entry [" + entry.from() + ", " + entry.to() + ")");
    }
  }

  @Override public List<KeyType> keyTypes() {
    return keyTypes;
  }

  @Override public int shardCount() {
    return shardCount;
  }

  public ChunkMap chunkMap() {
    return chunkMap;
  }

  /** Never empty: every key, NULL included, hashes to some shard. */
  @Override public OptionalInt shardOf(List<?> keyValues) {
    long hash = KeyHasher.hash(KeyHasher.keyBytes(keyTypes, keyValues));
    return OptionalInt.of(chunkMap.shardOf(hash));
  }

  /** The one shard of the key's chunk, found without building domains. */
  @Override public BitSet shardsForKey(Comparable<?> value) {
    ShardSets.checkKeyArity(keyTypes.size(), 1, "key");
    BitSet shards = new BitSet(shardCount);
    shards.set(shardOf(Collections.singletonList(value)).getAsInt());
    return shards;
  }

  /**
   * The shards of each key when every column's domain is a finite set of points (NULL being one
   * more point) and there are at most {@link #MAX_POINT_COMBINATIONS} keys; no shard when a domain
   * is empty; otherwise every shard, since hashing scatters ranges.
   */
  @Override public BitSet shardsFor(List<KeyDomain> perKeyColumn) {
    ShardSets.checkKeyArity(keyTypes.size(), perKeyColumn.size(), "key domain");
    if (perKeyColumn.stream().anyMatch(KeyDomain::isEmpty)) {
      return new BitSet();
    }
    List<List<Comparable<?>>> choices = new ArrayList<>(perKeyColumn.size());
    long combinations = 1;
    for (KeyDomain domain : perKeyColumn) {
      Optional<List<Comparable<?>>> points = domain.finitePoints();
      if (points.isEmpty()) {
        return ShardSets.all(shardCount);
      }
      List<Comparable<?>> choice = new ArrayList<>(points.get());
      if (domain.includesNull()) {
        choice.add(null);
      }
      combinations *= choice.size();
      if (combinations > MAX_POINT_COMBINATIONS) {
        return ShardSets.all(shardCount);
      }
      choices.add(choice);
    }
    return shardsOfEveryKey(choices);
  }

  /** Hashes each key of the cross product of the choices, like an odometer. */
  private BitSet shardsOfEveryKey(List<List<Comparable<?>>> choices) {
    BitSet shards = new BitSet(shardCount);
    int[] picks = new int[choices.size()];
    List<Comparable<?>> key = new ArrayList<>(choices.size());
    while (true) {
      key.clear();
      for (int column = 0; column < picks.length; column++) {
        key.add(choices.get(column).get(picks[column]));
      }
      shards.set(shardOf(key).getAsInt());
      int column = picks.length - 1;
      while (column >= 0 && ++picks[column] == choices.get(column).size()) {
        picks[column] = 0;
        column--;
      }
      if (column < 0) {
        return shards;
      }
    }
  }

  @Override public String toString() {
    return "HashRouter(" + keyTypes + ", " + chunkMap.entries().size() + " hash ranges, "
        + shardCount + " shards)";
  }
}
