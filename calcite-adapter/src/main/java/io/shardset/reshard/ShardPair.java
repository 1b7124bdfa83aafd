package io.shardset.reshard;

import io.shardset.model.ShardSpec;

import java.sql.Connection;
import java.util.Objects;

/**
 * An existing shard whose tables a new shard copies, and the new shard, with an open
 * connection to each; the caller closes them.
 */
record ShardPair(ShardSpec source, Connection sourceConnection, ShardSpec target,
    Connection targetConnection) {
  ShardPair {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(sourceConnection, "sourceConnection");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(targetConnection, "targetConnection");
  }
}
