package io.shardset.cli.server;

import io.shardset.calcite.jdbc.ClientErrors;

import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Service;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.sql.SQLException;

/**
 * The errors a remote client gets: the SQLState and reason of the failure
 * ({@link ClientErrors}), where Avatica's JDBC meta would send a plain RuntimeException that
 * reaches the client with SQLState {@code 00000}, the SQL text twice and the server's Java
 * stack traces. Avatica sends what an exception prints as the error's stack traces; these
 * errors print their reason only, so that a client (or a tool that prints the server's
 * traces) sees one line and nothing of the server's code. A write refused because the user
 * may not write ({@link Caller}) is a missing privilege, 42501, rather than the 25006 of a
 * connection its client made read-only.
 */
final class RemoteErrors {
  /** SQLState of a write on a read-only connection. */
  static final String READ_ONLY = "25006";
  /** The reason the embedded driver gives for a write on a read-only connection. */
  private static final String READ_ONLY_REASON = "connection is read-only";
  /** SQLState of a connection the server does not know (closed, or expired). */
  private static final String NO_CONNECTION = "08003";

  private RemoteErrors() {
  }

  /** The error to send for {@code e}, whoever sent the request. */
  static RuntimeException withSqlState(RuntimeException e) {
    return of(e);
  }

  /**
   * The error to send to {@code caller} for a failed request: {@link #withSqlState}'s, with a
   * write the caller's role does not allow refused as such.
   */
  static AvaticaRuntimeException forCaller(Throwable e, Caller caller) {
    final AvaticaRuntimeException error = of(e);
    if (!READ_ONLY.equals(error.getSqlState()) || !caller.refusedByRole()) {
      return error;
    }
    final String reason = error.getErrorMessage();
    final String why = String.valueOf(caller.whyNot());
    return new RemoteError(reason.startsWith(READ_ONLY_REASON)
        ? why + reason.substring(READ_ONLY_REASON.length()) : why + ": " + reason,
        error.getErrorCode(), ClientErrors.PERMISSION_DENIED, error.getCause());
  }

  private static AvaticaRuntimeException of(Throwable e) {
    if (e instanceof RemoteError remote) {
      return remote;
    }
    if (e instanceof NoSuchConnectionException) {
      // The error code tells Avatica's client to open the connection again.
      return new RemoteError(String.valueOf(e.getMessage()),
          Service.ErrorResponse.MISSING_CONNECTION_ERROR_CODE, NO_CONNECTION, e);
    }
    final SQLException failure = ClientErrors.classify(e);
    return new RemoteError(String.valueOf(failure.getMessage()), failure.getErrorCode(),
        failure.getSQLState(), e);
  }

  /** An error as a client gets it, which prints as its reason alone: Avatica sends what it
   * prints as the error's stack traces. Its cause, the failure, is for the server's log. */
  private static final class RemoteError extends AvaticaRuntimeException {
    private static final long serialVersionUID = 1L;

    RemoteError(String reason, int code, String state, @Nullable Throwable failure) {
      super(reason, code, state, AvaticaSeverity.ERROR);
      if (failure != null) {
        initCause(failure);
      }
    }

    /** No trace to keep: nobody sees it. */
    @Override public synchronized Throwable fillInStackTrace() {
      return this;
    }

    @Override public void printStackTrace(PrintWriter writer) {
      writer.print(getErrorMessage());
    }

    @Override public void printStackTrace(PrintStream stream) {
      stream.print(getErrorMessage());
    }
  }
}
