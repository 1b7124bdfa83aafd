package io.shardset.transaction;

import java.sql.SQLException;

/**
 * Recording a commit decision failed at the very commit of the log's transaction: the log
 * may or may not have kept the record, so the transaction may or may not commit; recovery
 * finds out, and finishes it either way.
 */
final class DecisionUnknownException extends SQLException {
  private static final long serialVersionUID = 1L;

  DecisionUnknownException(String message, SQLException cause) {
    super(message, cause.getSQLState(), cause);
  }
}
