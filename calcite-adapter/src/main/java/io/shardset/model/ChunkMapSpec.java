package io.shardset.model;

import io.shardset.routing.ChunkMap;

import java.util.Objects;

/**
 * One entry of the model's {@code chunkMap}: the half-open range {@code [from, to)} of the
 * unsigned 32-bit hash space that lives on a shard.
 *
 * @param from the first hash of the range, from 0
 * @param to the hash after the range, up to 2<sup>32</sup>
 * @param shard the shard name
 */
public record ChunkMapSpec(long from, long to, String shard) {
  /** The size of the hash space, 2<sup>32</sup>. */
  public static final long HASH_SPACE = ChunkMap.HASH_SPACE;

  public ChunkMapSpec {
    Objects.requireNonNull(shard, "shard");
    if (from < 0 || from >= to || to > HASH_SPACE) {
      throw new IllegalArgumentException("bad hash range [" + from + ", " + to + ")");
    }
  }
}
