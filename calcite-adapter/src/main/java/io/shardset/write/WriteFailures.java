package io.shardset.write;

import io.shardset.execution.ShardStates;
import io.shardset.topology.PlacementException;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * The SQLExceptions a write fails with: each names the table and, for a shard's failure, the
 * shard (its message redacted), and keeps the SQLState a client can act on.
 */
public final class WriteFailures {
  /** SQLState of a write to retry: its rows' key range is being moved. */
  public static final String SERIALIZATION_FAILURE = "40001";
  /** SQLState of a shard that cannot be reached. */
  public static final String CONNECTION_FAILURE = "08006";
  /** SQLState of a shard a write could not get a connection to. */
  public static final String UNREACHABLE = "08001";

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
   * shard's, or 08006 when the shard gave none (it cannot be reached). A failure made here
   * already is returned as it is.
   */
  public static SQLException onShard(ShardSite site, ShardedTable table, SQLException e) {
    if (e instanceof ShardWriteFailure) {
      return e;
    }
    return failure(site, table, e,
        e.getSQLState() == null ? CONNECTION_FAILURE : ShardStates.of(e));
  }

  /**
   * The failure to reach a shard for a write (its pool gave no connection), naming table
   * and shard: SQLState 08001 whatever the shard said, since a client retries on 08.
   */
  public static SQLException unreachable(ShardSite site, ShardedTable table,
      SQLException e) {
    if (e instanceof ShardWriteFailure) {
      return e;
    }
    return failure(site, table, e, e instanceof SQLTransientConnectionException
        || e.getSQLState() == null || e.getSQLState().startsWith("08") ? UNREACHABLE
        : e.getSQLState());
  }

  /**
   * The failure (SQLState 40001) of a change by key that found its row gone or changed on
   * its shard: another transaction changed it since this statement read it. Nothing of the
   * statement stays; the client retries it.
   */
  public static SQLException rowChanged(ShardSite site, ShardedTable table, String what) {
    return new SQLException("table " + table.qualifiedName() + ": " + what + " on shard '"
        + site.name() + "' found " + "no row where the statement had read one: another"
        + " transaction changed or deleted it meanwhile; retry the statement",
        SERIALIZATION_FAILURE);
  }

  private static SQLException failure(ShardSite site, ShardedTable table, SQLException e,
      String state) {
    final String detail = site.endpoint().redact(String.valueOf(e.getMessage()));
    final SQLException failure = new ShardWriteFailure("table " + table.qualifiedName()
        + ": shard '" + site.name() + "' failed: " + detail, state, e.getErrorCode());
    // The cause's own message may carry what redaction removed; keep only its class.
    failure.initCause(new SQLException(e.getClass().getName() + " (redacted)", e.getSQLState(),
        e.getErrorCode()));
    return failure;
  }

  /** A shard's failure of a write, as this class words it. */
  private static final class ShardWriteFailure extends SQLException {
    private static final long serialVersionUID = 1L;

    ShardWriteFailure(String message, String state, int code) {
      super(message, state, code);
    }
  }
}
