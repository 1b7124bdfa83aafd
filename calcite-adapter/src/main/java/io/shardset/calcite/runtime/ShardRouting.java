package io.shardset.calcite.runtime;

import io.shardset.routing.KeyCondition;
import io.shardset.routing.ShardRouter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.Objects;

/**
 * How a scan's target shards are found, as planned.
 *
 * @param staticShards the target shards when known at planning, else null (query parameters
 *     decide)
 * @param condition the predicate on the shard key that decides the target shards
 * @param router the table's router, or null for a table without one
 * @param keyLists the parameters that list shard keys, of which each shard is sent only its
 *     own
 * @param onlyShards the shards a {@code SHARDS} hint restricts the scan to, or null for any:
 *     routing at execution keeps to them (the plan's static shards do already)
 */
public record ShardRouting(@Nullable BitSet staticShards, KeyCondition condition,
    @Nullable ShardRouter router, KeyLists keyLists, @Nullable BitSet onlyShards) {
  public ShardRouting {
    staticShards = staticShards == null ? null : (BitSet) staticShards.clone();
    onlyShards = onlyShards == null ? null : (BitSet) onlyShards.clone();
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(keyLists, "keyLists");
  }

  @Override public @Nullable BitSet staticShards() {
    return staticShards == null ? null : (BitSet) staticShards.clone();
  }

  @Override public @Nullable BitSet onlyShards() {
    return onlyShards == null ? null : (BitSet) onlyShards.clone();
  }
}
