package io.shardset.reshard;

import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ReshardSpec;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a resharding operation changes: the hash ranges that move between shards of one
 * shardspace, and the model's whole chunk map before and after.
 *
 * @param schema the schema whose model changes
 * @param shardspace the shardspace whose ranges move
 * @param operation the operation, as the model's {@code reshard} object names it
 * @param moves the ranges that change shard, in hash order; empty when no row moves
 * @param chunkMapBefore the model's chunk map with every hashed shardspace's placement
 *     written out, as it places rows now
 * @param chunkMapAfter the same map after the moves (or the split)
 * @param addedShard the model object of the shard that joins, or null
 * @param leaving the shard that leaves once the moves are done, or null
 */
public record ReshardPlan(String schema, String shardspace, String operation,
    List<ReshardSpec.MoveSpec> moves, List<ChunkMapSpec> chunkMapBefore,
    List<ChunkMapSpec> chunkMapAfter, Map<String, Object> addedShard, String leaving) {
  public ReshardPlan {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(shardspace, "shardspace");
    Objects.requireNonNull(operation, "operation");
    moves = List.copyOf(moves);
    chunkMapBefore = List.copyOf(chunkMapBefore);
    chunkMapAfter = List.copyOf(chunkMapAfter);
    addedShard = addedShard == null
        ? null : Collections.unmodifiableMap(new LinkedHashMap<>(addedShard));
  }

  /** The name of the shard that joins, or null. */
  public String addedShardName() {
    return addedShard == null ? null : (String) addedShard.get("name");
  }

  /** The share of the shardspace's hash space that changes shard. */
  public double movedFraction() {
    return moves.stream().mapToDouble(m -> (double) (m.to() - m.from()))
        .sum() / ChunkMapSpec.HASH_SPACE;
  }

  /** The move in progress as the model records it in the given phase. */
  public ReshardSpec reshard(ReshardSpec.Phase phase) {
    return new ReshardSpec(shardspace, phase, moves, operation, leaving);
  }
}
