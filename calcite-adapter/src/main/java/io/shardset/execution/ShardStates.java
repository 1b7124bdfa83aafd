package io.shardset.execution;

import java.sql.SQLException;

/**
 * The SQLState ShardSet reports for a shard's error, where backends disagree on one: a lock
 * wait that timed out is {@value #LOCK_NOT_AVAILABLE} (PostgreSQL's lock_not_available)
 * whichever backend timed it out, since MariaDB says HY000 (error 1205) and H2 HYT00 (error
 * 50200), which clients cannot tell from other errors. Any other error keeps its state.
 */
public final class ShardStates {
  /** SQLState of a lock wait that timed out (lock not available). */
  public static final String LOCK_NOT_AVAILABLE = "55P03";
  private static final int MARIADB_LOCK_WAIT_TIMEOUT = 1205;
  private static final int H2_LOCK_TIMEOUT = 50200;

  private ShardStates() {
  }

  /** The state to report for the shard's error; null when it has none. */
  public static String of(SQLException e) {
    final String state = e.getSQLState();
    if (e.getErrorCode() == MARIADB_LOCK_WAIT_TIMEOUT && "HY000".equals(state)
        || e.getErrorCode() == H2_LOCK_TIMEOUT && "HYT00".equals(state)) {
      return LOCK_NOT_AVAILABLE;
    }
    return state;
  }
}
