package io.shardset.write;

import io.shardset.topology.PlacementException;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;

import java.sql.SQLException;

/**
 * The SQLExceptions a write fails with: each names the table and, for a shard's failure, the
 * shard (its message redacted), and keeps the SQLState a client can act on.
 */
public final class WriteFailures {
  /** SQLState of a write to retry: its rows' key range is being moved. */
  public static final String SERIALIZATION_FAILURE = "40001";
  /** SQLState of a shard that cannot be reached. */
  public static final String CONNECTION_FAILURE = "08006";

  private WriteFailures() {
  }

  /** The failure of a row the model cannot place, or that must wait for a move. */
  public static SQLException unplaceable(PlacementException e) {
    final String message = e.isRetryable() ? e.getMessage() + "; retry after the move"
        : e.getMessage();
    return new SQLException(message, e.sqlState(), e);
  }

  /** The failure (SQLState 40001) of a row of a moving range whose write cannot wait, or
   * waited in vain, and why. */
  public static SQLException cannotWait(PlacementException moving, String why) {
    return new SQLException(moving.getMessage() + "; " + why, SERIALIZATION_FAILURE, moving);
  }

  /**
   * The failure of a statement on a shard, naming table and shard; the SQLState is the
   * shard's, or 08006 when the shard gave none (it cannot be reached).
   */
  public static SQLException onShard(ShardSite site, ShardedTable table, SQLException e) {
    final String detail = site.endpoint().redact(String.valueOf(e.getMessage()));
    final String state = e.getSQLState() == null ? CONNECTION_FAILURE : e.getSQLState();
    final SQLException failure = new SQLException("table " + table.qualifiedName()
        + ": shard '" + site.name() + "' failed: " + detail, state, e.getErrorCode());
    // The cause's own message may carry what redaction removed; keep only its class.
    failure.initCause(new SQLException(e.getClass().getName() + " (redacted)", e.getSQLState(),
        e.getErrorCode()));
    return failure;
  }
}
