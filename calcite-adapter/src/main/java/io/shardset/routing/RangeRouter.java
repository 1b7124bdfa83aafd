package io.shardset.routing;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Routes by ranges of one key column: each partition holds the half-open range [from, to) of
 * values; keys outside every range, and NULL, belong to no shard.
 */
public final class RangeRouter implements ShardRouter {
  private final KeyType keyType;
  private final List<Partition> partitions;
  private final List<KeyDomain> domains;
  private final int shardCount;

  /** The key values [from, to) live on shard {@code shard}; a null bound is unbounded. */
  public record Partition(Comparable<?> from, Comparable<?> to, int shard) {
    public Partition {
      from = from == null ? null : KeyValues.canonical(from);
      to = to == null ? null : KeyValues.canonical(to);
    }

    KeyDomain.Interval interval() {
      return new KeyDomain.Interval(from, true, to, false);
    }
  }

  /**
   * Creates a router over ranges given in any order; their bounds are normalized with the key
   * type.
   *
   * @throws IllegalArgumentException if a range is empty, names a shard the table does not have,
   *     overlaps another range or leaves a gap before the next one
   */
  public RangeRouter(KeyType keyType, List<Partition> partitions, int shardCount) {
    this.keyType = Objects.requireNonNull(keyType, "keyType");
    this.shardCount = ShardSets.checkShardCount(shardCount);
    List<Partition> sorted = new ArrayList<>(partitions.size());
    for (Partition partition : partitions) {
      Partition normalized = new Partition(keyType.normalize(partition.from()),
          keyType.normalize(partition.to()), partition.shard());
      ShardSets.checkShard(normalized.shard(), shardCount,
          () -> "range " + normalized.interval().toString(keyType::format));
      if (normalized.interval().isEmpty()) {
        throw new IllegalArgumentException("range " + describe(normalized)
            + " is empty: from must be less than to");
      }
      sorted.add(normalized);
    }
    sorted.sort(Comparator.comparing(Partition::from,
        Comparator.nullsFirst(KeyValues::compare)));
    for (int i = 1; i < sorted.size(); i++) {
      checkAdjacent(sorted.get(i - 1), sorted.get(i));
    }
    this.partitions = List.copyOf(sorted);
    this.domains = sorted.stream()
        .map(partition -> KeyDomain.of(List.of(partition.interval()), false))
        .toList();
  }

  @Override public List<KeyType> keyTypes() {
    return List.of(keyType);
  }

  @Override public int shardCount() {
    return shardCount;
  }

  /** The partitions with normalized bounds, sorted by {@code from}. */
  public List<Partition> partitions() {
    return partitions;
  }

  @Override public OptionalInt shardOf(List<?> keyValues) {
    ShardSets.checkKeyArity(1, keyValues.size(), "key value");
    Comparable<?> value = keyType.normalize(keyValues.get(0));
    if (value == null) {
      return OptionalInt.empty();
    }
    // The last range starting at or below the value is the only one that can hold it.
    int low = 0;
    int high = partitions.size() - 1;
    int candidate = -1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      Comparable<?> from = partitions.get(middle).from();
      if (from == null || KeyValues.compare(from, value) <= 0) {
        candidate = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (candidate < 0) {
      return OptionalInt.empty();
    }
    Partition partition = partitions.get(candidate);
    return partition.to() == null || KeyValues.compare(value, partition.to()) < 0
        ? OptionalInt.of(partition.shard())
        : OptionalInt.empty();
  }

  /**
   * The shards whose range shares a value with the domain; NULL matches no range. Dates are whole
   * days, so {@code day > d} reaches no range that ends at {@code d + 1}.
   */
  @Override public BitSet shardsFor(List<KeyDomain> perKeyColumn) {
    ShardSets.checkKeyArity(1, perKeyColumn.size(), "key domain");
    KeyDomain domain = perKeyColumn.get(0).withNull(false);
    if (keyType == KeyType.DATE) {
      domain = closeOpenEnds(domain);
    }
    BitSet shards = new BitSet(shardCount);
    if (domain.isEmpty()) {
      return shards;
    }
    for (int i = 0; i < partitions.size(); i++) {
      if (!domain.intersect(domains.get(i)).isEmpty()) {
        shards.set(partitions.get(i).shard());
      }
    }
    return shards;
  }

  /** Equal routers send every value to the same shard. */
  @Override public boolean equals(Object o) {
    return o == this
        || o instanceof RangeRouter that
            && keyType == that.keyType
            && shardCount == that.shardCount
            && partitions.equals(that.partitions);
  }

  @Override public int hashCode() {
    return Objects.hash(keyType, shardCount, partitions);
  }

  @Override public String toString() {
    return "RangeRouter(" + keyType + ", " + partitions.size() + " ranges, "
        + shardCount + " shards)";
  }

  /** The same days with exclusive ends made inclusive: (d, e) becomes [d + 1, e - 1]. */
  private static KeyDomain closeOpenEnds(KeyDomain days) {
    List<KeyDomain.Interval> closed = new ArrayList<>(days.intervals().size());
    for (KeyDomain.Interval interval : days.intervals()) {
      Comparable<?> lower = interval.lower();
      Comparable<?> upper = interval.upper();
      if (lower instanceof Long day && !interval.lowerInclusive()) {
        if (day == Long.MAX_VALUE) {
          continue;
        }
        lower = day + 1;
      }
      if (upper instanceof Long day && !interval.upperInclusive()) {
        if (day == Long.MIN_VALUE) {
          continue;
        }
        upper = day - 1;
      }
      closed.add(new KeyDomain.Interval(lower, lower != null, upper, upper != null));
    }
    return KeyDomain.of(closed, false);
  }

  private void checkAdjacent(Partition previous, Partition next) {
    int c = previous.to() == null || next.from() == null
        ? 1
        : KeyValues.compare(previous.to(), next.from());
    if (c > 0) {
      throw new IllegalArgumentException("range " + describe(next) + " overlaps range "
          + describe(previous));
    }
    if (c < 0) {
      throw new IllegalArgumentException("gap between range " + describe(previous)
          + " and range " + describe(next));
    }
  }

  private String describe(Partition partition) {
    return partition.interval().toString(keyType::format) + " on shard " + partition.shard();
  }
}
