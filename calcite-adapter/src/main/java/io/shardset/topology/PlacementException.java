package io.shardset.topology;

import java.util.Objects;

/**
 * A row that the model cannot place, or that a writer must not write now: the message names
 * the table, the column and the value. An IllegalArgumentException, as a row a caller gave is
 * what is wrong.
 */
public final class PlacementException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Why a row cannot be placed. */
  public enum Reason {
    /** No shard of the table accepts the row's key. */
    NO_SHARD("22023"),
    /** A key column is NULL and the table's routing places no NULL key. */
    NULL_KEY("23502"),
    /** No subpartition of the table accepts the row's subpartition column. */
    NO_SUBPARTITION("22023"),
    /** The row's key lies in a range a resharding is moving; the write can be retried. */
    MOVING("40001");

    private final String sqlState;

    Reason(String sqlState) {
      this.sqlState = sqlState;
    }

    /** The SQLState a JDBC client sees for this reason. */
    public String sqlState() {
      return sqlState;
    }
  }

  private final Reason reason;
  private final String table;

  /** Creates the exception for a row of {@code table} (its qualified name). */
  public PlacementException(Reason reason, String table, String message) {
    super(message);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.table = Objects.requireNonNull(table, "table");
  }

  public Reason reason() {
    return reason;
  }

  /** The qualified name of the table whose row it is. */
  public String table() {
    return table;
  }

  /** The SQLState a JDBC client sees: 40001 (retry) for a row in a moving range. */
  public String sqlState() {
    return reason.sqlState();
  }

  /** Whether writing the row again later can succeed (its range is being moved). */
  public boolean isRetryable() {
    return reason == Reason.MOVING;
  }
}
