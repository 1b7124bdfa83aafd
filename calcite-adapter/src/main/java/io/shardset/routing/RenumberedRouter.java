package io.shardset.routing;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A router whose shards are numbered as another list of shards numbers them: routes with
 * {@code router} and gives each of its shards the number {@code numbers[shard]}, so that a
 * router built from a newer model answers in the shard numbers of a table built earlier.
 */
public final class RenumberedRouter implements ShardRouter {
  private final ShardRouter router;
  private final int[] numbers;
  private final int shardCount;

  /**
   * Creates a router.
   *
   * @param numbers for each of {@code router}'s shards, its number here; -1 for a shard that
   *     has none, which must hold no rows
   * @param shardCount the number of shards here
   */
  public RenumberedRouter(ShardRouter router, int[] numbers, int shardCount) {
    this.router = Objects.requireNonNull(router, "router");
    if (numbers.length != router.shardCount()) {
      throw new IllegalArgumentException("need a number for each of " + router.shardCount()
          + " shards, got " + numbers.length);
    }
    this.numbers = numbers.clone();
    this.shardCount = shardCount;
  }

  @Override public List<KeyType> keyTypes() {
    return router.keyTypes();
  }

  @Override public int shardCount() {
    return shardCount;
  }

  @Override public OptionalInt shardOf(List<?> keyValues) {
    final OptionalInt shard = router.shardOf(keyValues);
    return shard.isEmpty() || numbers[shard.getAsInt()] < 0
        ? OptionalInt.empty() : OptionalInt.of(numbers[shard.getAsInt()]);
  }

  @Override public BitSet shardsFor(List<KeyDomain> perKeyColumn) {
    final BitSet theirs = router.shardsFor(perKeyColumn);
    final BitSet ours = new BitSet(shardCount);
    for (int shard = theirs.nextSetBit(0); shard >= 0; shard = theirs.nextSetBit(shard + 1)) {
      if (numbers[shard] >= 0) {
        ours.set(numbers[shard]);
      }
    }
    return ours;
  }

  @Override public boolean isStable() {
    return router.isStable();
  }

  @Override public String toString() {
    return router + " renumbered";
  }
}
