package io.shardset.transaction;

import java.sql.SQLException;

/**
 * What a transaction's attachment checks before the transaction may commit: a writer's hold on
 * the version of the model its rows were placed under, say, which must still be one this
 * process may write under. Checked when the commit starts and, across shards, once every shard
 * has prepared and before the decision is recorded; a failure rolls the transaction back.
 */
@FunctionalInterface
public interface CommitCheck {
  /**
   * Throws if the transaction must not commit.
   *
   * @throws SQLException saying why, with the SQLState the client gets
   */
  void check() throws SQLException;
}
