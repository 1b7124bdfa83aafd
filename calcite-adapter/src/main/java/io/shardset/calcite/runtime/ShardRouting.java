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
 */
public record ShardRouting(@Nullable BitSet staticShards, KeyCondition condition,
    @Nullable ShardRouter router, KeyLists keyLists) {
  public ShardRouting {
    staticShards = staticShards == null ? null : (BitSet) staticShards.clone();
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(keyLists, "keyLists");
  }

  @Override public @Nullable BitSet staticShards() {
    return staticShards == null ? null : (BitSet) staticShards.clone();
  }
}
