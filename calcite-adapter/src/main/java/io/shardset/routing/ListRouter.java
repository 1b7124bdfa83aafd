package io.shardset.routing;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Routes by lists of values of one key column: each listed value lives on its shard, and every
 * other value, NULL included, on the default shard if there is one and nowhere otherwise.
 */
public final class ListRouter implements ShardRouter {
  private final KeyType keyType;
  private final NavigableMap<Comparable<?>, Integer> shardByValue;
  private final OptionalInt defaultShard;
  private final int shardCount;

  /** The listed values live on shard {@code shard}; several partitions may name one shard. */
  public record Partition(int shard, List<Comparable<?>> values) {
    public Partition {
      values = new ArrayList<>(values);
      if (values.contains(null)) {
        throw new IllegalArgumentException("the list of shard " + shard
            + " holds NULL, which only a default shard can take");
      }
      values = Collections.unmodifiableList(values);
    }
  }

  /**
   * Creates a router; listed values are normalized with the key type.
   *
   * @throws IllegalArgumentException if a value is listed twice, or a shard is named that the
   *     table does not have
   */
  public ListRouter(KeyType keyType, List<Partition> partitions, OptionalInt defaultShard,
      int shardCount) {
    this.keyType = Objects.requireNonNull(keyType, "keyType");
    this.defaultShard = Objects.requireNonNull(defaultShard, "defaultShard");
    this.shardCount = ShardSets.checkShardCount(shardCount);
    defaultShard.ifPresent(shard -> ShardSets.checkShard(shard, shardCount, "the default list"));
    this.shardByValue = new TreeMap<>(KeyValues::compare);
    for (Partition partition : partitions) {
      ShardSets.checkShard(partition.shard(), shardCount, "a list");
      for (Comparable<?> listed : partition.values()) {
        Comparable<?> value = keyType.normalize(listed);
        Integer previous = shardByValue.putIfAbsent(value, partition.shard());
        if (previous != null) {
          throw new IllegalArgumentException("value " + keyType.format(value)
              + " is listed for shard " + previous + " and again for shard " + partition.shard());
        }
      }
    }
  }

  @Override public List<KeyType> keyTypes() {
    return List.of(keyType);
  }

  @Override public int shardCount() {
    return shardCount;
  }

  public OptionalInt defaultShard() {
    return defaultShard;
  }

  @Override public OptionalInt shardOf(List<?> keyValues) {
    ShardSets.checkKeyArity(1, keyValues.size(), "key value");
    Comparable<?> value = keyType.normalize(keyValues.get(0));
    Integer shard = value == null ? null : shardByValue.get(value);
    return shard == null ? defaultShard : OptionalInt.of(shard);
  }

  /**
   * The shards listing a value of the domain, plus the default shard when the domain holds NULL
   * or a value that is not listed; a real range is taken to hold unlisted values.
   */
  @Override public BitSet shardsFor(List<KeyDomain> perKeyColumn) {
    ShardSets.checkKeyArity(1, perKeyColumn.size(), "key domain");
    KeyDomain domain = perKeyColumn.get(0);
    BitSet shards = new BitSet(shardCount);
    boolean unlisted = domain.includesNull();
    for (KeyDomain.Interval interval : domain.intervals()) {
      NavigableMap<Comparable<?>, Integer> listed = listedWithin(interval);
      listed.values().forEach(shards::set);
      unlisted |= !interval.isPoint() || listed.isEmpty();
    }
    if (unlisted) {
      defaultShard.ifPresent(shards::set);
    }
    return shards;
  }

  /** Equal routers send every value to the same shard. */
  @Override public boolean equals(Object o) {
    return o == this
        || o instanceof ListRouter that
            && keyType == that.keyType
            && shardCount == that.shardCount
            && defaultShard.equals(that.defaultShard)
            && shardByValue.equals(that.shardByValue);
  }

  @Override public int hashCode() {
    return Objects.hash(keyType, shardCount, defaultShard, shardByValue);
  }

  @Override public String toString() {
    return "ListRouter(" + keyType + ", " + shardByValue.size() + " values, "
        + (defaultShard.isPresent() ? "default shard " + defaultShard.getAsInt() : "no default")
        + ", " + shardCount + " shards)";
  }

  private NavigableMap<Comparable<?>, Integer> listedWithin(KeyDomain.Interval interval) {
    NavigableMap<Comparable<?>, Integer> listed = shardByValue;
    if (interval.lower() != null) {
      listed = listed.tailMap(interval.lower(), interval.lowerInclusive());
    }
    if (interval.upper() != null) {
      listed = listed.headMap(interval.upper(), interval.upperInclusive());
    }
    return listed;
  }
}
