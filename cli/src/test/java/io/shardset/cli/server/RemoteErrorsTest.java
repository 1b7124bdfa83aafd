package io.shardset.cli.server;

import io.shardset.calcite.runtime.WriteFailedException;

import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Service;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The SQLState and message a remote client gets for the errors of its calls. */
class RemoteErrorsTest {
  private static final Caller WRITER = new Caller("alice", "127.0.0.1", true, null, false,
      null, false);
  private static final Caller READER = new Caller("nora", "127.0.0.1", false,
      "user nora has no role 'write' (or has the role 'read')", true, null, false);
  private static final Caller ON_READ_ONLY_SERVER = new Caller("alice", "127.0.0.1", false,
      "the server is read-only", false, null, false);

  /** How a write refused on a read-only connection reaches Avatica's server: the statement's
   * SQLException, around the refusal, in Avatica's RuntimeException. */
  private static RuntimeException refusedWrite() {
    final SQLException refusal =
        new SQLException("connection is read-only: cannot write to table S.T", "25006");
    return new RuntimeException(new SQLException("Error while executing SQL \"INSERT INTO"
        + " T VALUES (1)\": connection is read-only: cannot write to table S.T",
        new WriteFailedException(refusal)));
  }

  private static AvaticaRuntimeException sent(Throwable e, Caller caller) {
    return RemoteErrors.forCaller(e, caller);
  }

  @Test void aRefusedWriteKeepsItsSqlStateAndLosesTheSqlText() {
    final AvaticaRuntimeException remote = sent(refusedWrite(), WRITER);
    assertEquals("25006", remote.getSqlState());
    assertEquals("connection is read-only: cannot write to table S.T",
        remote.getErrorMessage());
    assertEquals("25006", sent(refusedWrite(), ON_READ_ONLY_SERVER).getSqlState());
  }

  @Test void aWriteTheRoleDoesNotAllowIsAMissingPrivilege() {
    final AvaticaRuntimeException remote = sent(refusedWrite(), READER);
    assertEquals("42501", remote.getSqlState());
    assertEquals("user nora has no role 'write' (or has the role 'read'): cannot write to"
        + " table S.T", remote.getErrorMessage());
  }

  @Test void aWriteToRetryKeeps40001() {
    final SQLException moving = new SQLException("table S.T: key 5 is in a range being moved;"
        + " retry after the move", "40001");
    final AvaticaRuntimeException remote =
        sent(new RuntimeException(new WriteFailedException(moving)), READER);
    assertEquals("40001", remote.getSqlState());
    assertEquals(moving.getMessage(), remote.getErrorMessage());
  }

  @Test void anErrorWithoutStateIsAGeneralErrorWithItsOwnReason() {
    final AvaticaRuntimeException remote = sent(
        new RuntimeException(new SQLException("Error while executing SQL \"x\": boom")), WRITER);
    assertEquals("HY000", remote.getSqlState());
    assertEquals("boom", remote.getErrorMessage());
  }

  @Test void anUnknownConnectionKeepsTheCodeThatMakesTheClientReconnect() {
    final AvaticaRuntimeException remote =
        sent(new NoSuchConnectionException("Connection not found: c1"), WRITER);
    assertEquals(Service.ErrorResponse.MISSING_CONNECTION_ERROR_CODE, remote.getErrorCode());
    assertEquals("08003", remote.getSqlState());
  }

  /** Avatica sends what the error prints as its stack traces: the reason, nothing more. */
  @Test void anErrorPrintsItsReasonOnly() {
    final RuntimeException failure = refusedWrite();
    final AvaticaRuntimeException remote = sent(failure, READER);
    final StringWriter printed = new StringWriter();
    remote.printStackTrace(new PrintWriter(printed));
    assertEquals(remote.getErrorMessage(), printed.toString());
    assertEquals(0, remote.getStackTrace().length);
    // The failure stays the cause, for the server's log.
    assertSame(failure, remote.getCause());
  }
}
