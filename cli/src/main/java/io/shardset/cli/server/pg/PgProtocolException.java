package io.shardset.cli.server.pg;

/**
 * A message a client may not send where it sent it, or one that cannot be read: the
 * connection ends with an ErrorResponse carrying {@link #sqlState()}.
 */
final class PgProtocolException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** PostgreSQL's code of a protocol violation. */
  static final String PROTOCOL_VIOLATION = "08P01";

  private final String sqlState;

  PgProtocolException(String message) {
    this(PROTOCOL_VIOLATION, message);
  }

  PgProtocolException(String sqlState, String message) {
    super(message);
    this.sqlState = sqlState;
  }

  String sqlState() {
    return sqlState;
  }
}
