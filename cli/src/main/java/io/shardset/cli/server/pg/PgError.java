package io.shardset.cli.server.pg;

import java.sql.SQLException;

/**
 * What an ErrorResponse says of a failure: PostgreSQL's SQLState for it (see
 * {@link PgSqlState}) and ShardSet's message, which names what is wrong and carries no
 * password or row.
 *
 * @param sqlState the SQLState
 * @param message the message
 */
record PgError(String sqlState, String message) {
  /** The error of a failure of a statement or a message. */
  static PgError of(Throwable failure) {
    if (failure instanceof PgProtocolException protocol) {
      return new PgError(protocol.sqlState(), protocol.getMessage());
    }
    // The first SQLException with a state says most: Calcite wraps ShardSet's errors.
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && sql.getSQLState() != null) {
        return new PgError(PgSqlState.of(sql.getSQLState()), message(sql));
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return new PgError(PgSqlState.INTERNAL_ERROR, message(failure));
  }

  private static String message(Throwable failure) {
    final String message = failure.getMessage();
    return message == null ? failure.getClass().getSimpleName() : message;
  }
}
