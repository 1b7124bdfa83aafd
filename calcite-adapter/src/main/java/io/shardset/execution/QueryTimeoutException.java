package io.shardset.execution;

import java.sql.SQLTimeoutException;

/**
 * A query ran out of the time its statement set: SQLState {@value #SQL_STATE}, the state
 * PostgreSQL gives a canceled statement, whichever shard's driver reported the cancel (and
 * however it words it).
 */
public final class QueryTimeoutException extends SQLTimeoutException {
  private static final long serialVersionUID = 1L;

  /** SQLState of a statement canceled by its time limit (query_canceled). */
  public static final String SQL_STATE = "57014";

  /** Creates the error; {@code message} names the limit that was set. */
  public QueryTimeoutException(String message) {
    super(message, SQL_STATE);
  }

  /** Creates the error for the driver's report of the cancel, {@code cause}. */
  public QueryTimeoutException(String message, Throwable cause) {
    super(message, SQL_STATE, cause);
  }
}
