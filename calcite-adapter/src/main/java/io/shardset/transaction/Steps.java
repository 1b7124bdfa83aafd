package io.shardset.transaction;

/**
 * What a coordinator tells between the steps of a two-phase commit, for tests that stop it
 * there (by throwing an {@link Error}, which leaves the shards as a crash would) or make
 * another process wait there. Does nothing in production.
 */
interface Steps {
  /** Tells nothing. */
  Steps NONE = new Steps() {
  };

  /** The transaction is about to be prepared on the shard. */
  default void preparing(GlobalId id, String shard) {
  }

  /** Every shard prepared the transaction; its decision is not recorded yet. */
  default void prepared(GlobalId id) {
  }

  /** The commit decision is durable in the log; no shard committed yet. */
  default void decided(GlobalId id) {
  }

  /** The prepared transaction is about to be committed on the shard. */
  default void committing(GlobalId id, String shard) {
  }
}
