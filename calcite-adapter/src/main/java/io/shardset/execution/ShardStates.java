package io.shardset.execution;

import java.sql.SQLException;

/**
 * The SQLState ShardSet reports for a shard's error, where backends disagree on one, so that
 * a client (and a framework that translates states into exceptions, as Spring does) sees one
 * state for one kind of error whichever shard failed: PostgreSQL's states, which name the
 * kind. A lock wait that timed out is {@value #LOCK_NOT_AVAILABLE} (lock_not_available),
 * where MariaDB says HY000 (error 1205) and H2 HYT00 (error 50200); a duplicate key is 23505,
 * a NULL in a NOT NULL column 23502, a missing or still referenced parent 23503 and a failed
 * CHECK 23514, where MariaDB says 23000 for all four; H2's "numeric value out of range" with
 * a column name is 22003, where H2 says 22004, the standard's "null value not allowed". Any
 * other error keeps its state.
 */
public final class ShardStates {
  /** SQLState of a lock wait that timed out (lock not available). */
  public static final String LOCK_NOT_AVAILABLE = "55P03";
  private static final int MARIADB_LOCK_WAIT_TIMEOUT = 1205;
  private static final int H2_LOCK_TIMEOUT = 50200;
  private static final int H2_OUT_OF_RANGE_IN_COLUMN = 22004;
  private static final int H2_PARENT_MISSING = 23506;
  private static final int H2_CHECK_VIOLATED = 23513;

  private ShardStates() {
  }

  /** The state to report for the shard's error; null when it has none. */
  public static String of(SQLException e) {
    final String state = e.getSQLState();
    final int code = e.getErrorCode();
    if (code == MARIADB_LOCK_WAIT_TIMEOUT && "HY000".equals(state)
        || code == H2_LOCK_TIMEOUT && "HYT00".equals(state)) {
      return LOCK_NOT_AVAILABLE;
    }
    if ("23000".equals(state)) {
      return switch (code) {
      case 1062, 1586 -> "23505";
      case 1048 -> "23502";
      case 1451, 1452 -> "23503";
      case 4025 -> "23514";
      default -> state;
      };
    }
    if (code == H2_OUT_OF_RANGE_IN_COLUMN && "22004".equals(state)) {
      return "22003";
    }
    if (code == H2_PARENT_MISSING && "23506".equals(state)) {
      return "23503";
    }
    if (code == H2_CHECK_VIOLATED && "23513".equals(state)) {
      return "23514";
    }
    return state;
  }
}
