package io.shardset.reshard;

import io.shardset.model.ShardSetModel;

import java.sql.SQLException;

/**
 * Makes a shard that joins ready to be written into the model: creates every table it will
 * hold and copies the duplicated tables' rows to it. Called at PREPARE of add-shard, before
 * the model names the shard; must be idempotent.
 */
@FunctionalInterface
public interface NewShardPreparer {
  /** For shards whose tables the user created and filled beforehand. */
  NewShardPreparer NONE = (before, after, shard) -> { };

  /**
   * Prepares the new shard.
   *
   * @param before the model now, without the shard
   * @param after the model that names the shard (as ANNOUNCE will write it)
   * @param shard the new shard's name
   */
  void prepare(ShardSetModel before, ShardSetModel after, String shard) throws SQLException;
}
