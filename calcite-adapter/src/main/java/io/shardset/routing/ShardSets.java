package io.shardset.routing;

import java.util.BitSet;
import java.util.function.Supplier;

/** Argument checks and shard sets shared by the routers. */
final class ShardSets {
  private ShardSets() {
  }

  /** Shards 0 to shardCount - 1. */
  static BitSet all(int shardCount) {
    BitSet shards = new BitSet(shardCount);
    shards.set(0, shardCount);
    return shards;
  }

  static int checkShardCount(int shardCount) {
    if (shardCount < 1) {
      throw new IllegalArgumentException("a table needs at least one shard, got " + shardCount);
    }
    return shardCount;
  }

  /** Fails unless {@code shard} is one of the table's shards; {@code what} names who names it. */
  static void checkShard(int shard, int shardCount, String what) {
    checkShard(shard, shardCount, () -> what);
  }

  /** As {@link #checkShard(int, int, String)}, with {@code what} written only for a failure:
   * callers that check a chunk map's hundred thousand entries should not build a text each. */
  static void checkShard(int shard, int shardCount, Supplier<String> what) {
    if (shard < 0 || shard >= shardCount) {
      throw new IllegalArgumentException(what.get() + " names shard " + shard
          + ", but the table's shards are 0 to " + (shardCount - 1));
    }
  }

  /** Fails unless a list of key items (each an {@code item}) has one item per key column. */
  static void checkKeyArity(int keyColumns, int actual, String item) {
    if (actual != keyColumns) {
      throw new IllegalArgumentException("expected " + keyColumns + " " + item
          + (keyColumns == 1 ? "" : "s") + ", one per key column, got " + actual);
    }
  }
}
