package io.shardset.cli.server;

import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Service;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;

/**
 * The errors a remote client gets. Avatica's JDBC meta wraps the SQLException of a call in a
 * plain RuntimeException, which reaches the client with SQLState {@code 00000}; the client
 * should get the state ShardSet gave (25006 for a write on a read-only connection, 0A000 for
 * an isolation it does not provide), and Calcite's statements wrap that SQLException in
 * another one without a state.
 */
final class RemoteErrors {
  private RemoteErrors() {
  }

  /**
   * The error to send for {@code e}: when it carries a SQLException, one with the first
   * SQLException's message and the SQLState and vendor code of the first in its causes that
   * has a state; else {@code e} itself.
   */
  static RuntimeException withSqlState(RuntimeException e) {
    if (e instanceof AvaticaRuntimeException) {
      return e;
    }
    final SQLException outer = firstSqlException(e);
    if (outer == null) {
      return e;
    }
    SQLException stated = outer;
    for (Throwable t = outer; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        stated = sql;
        break;
      }
    }
    final AvaticaRuntimeException remote = new AvaticaRuntimeException(
        String.valueOf(outer.getMessage()), stated.getErrorCode(),
        stated.getSQLState() == null ? Service.ErrorResponse.UNKNOWN_SQL_STATE
            : stated.getSQLState(), AvaticaSeverity.ERROR);
    remote.initCause(e);
    return remote;
  }

  private static @Nullable SQLException firstSqlException(Throwable e) {
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return sql;
      }
    }
    return null;
  }
}
