package io.shardset.calcite.runtime;

import java.sql.SQLException;

/**
 * A write that failed, through code that cannot throw checked exceptions: the
 * {@link SQLException} it carries names table, shard or value and has the SQLState the JDBC
 * client should see (the driver's Meta unwraps it).
 */
public final class WriteFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Wraps a write's failure; the message is the failure's. */
  public WriteFailedException(SQLException failure) {
    super(failure.getMessage(), failure);
  }

  /** The write's failure. */
  public SQLException failure() {
    return (SQLException) getCause();
  }
}
