package io.shardset.execution;

import java.sql.SQLTransientConnectionException;

/**
 * Every connection of a shard's pool stayed in use for as long as a statement may wait for
 * one: the shard is busy, not failing.
 */
final class ShardBusyException extends SQLTransientConnectionException {
  private static final long serialVersionUID = 1L;

  ShardBusyException(int connections, long waitedMillis, int waiting) {
    super("all " + connections + " connections in use for " + waitedMillis + " ms ("
        + waiting + " more statements waiting); raise the shard's poolSize or acquireTimeout");
  }
}
