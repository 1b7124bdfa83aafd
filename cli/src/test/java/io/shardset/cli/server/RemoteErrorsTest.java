package io.shardset.cli.server;

import org.apache.calcite.avatica.remote.AvaticaRuntimeException;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The SQLState a remote client gets for the errors of its calls. */
class RemoteErrorsTest {
  @Test void aRefusedWriteKeepsItsSqlStateThroughCalcitesAndAvaticasWrapping() {
    // How a write refused on a read-only connection reaches Avatica's server: the statement's
    // SQLException without a state, around the refusal, in Avatica's RuntimeException.
    final SQLException refusal =
        new SQLException("connection is read-only: cannot write to table S.T", "25006");
    final SQLException statement = new SQLException("Error while executing SQL \"INSERT INTO"
        + " T VALUES (1)\": connection is read-only: cannot write to table S.T",
        new RuntimeException(refusal));
    final RuntimeException sent = RemoteErrors.withSqlState(new RuntimeException(statement));
    final AvaticaRuntimeException remote = (AvaticaRuntimeException) sent;
    assertEquals("25006", remote.getSqlState());
    assertEquals(statement.getMessage(), remote.getErrorMessage());
  }

  @Test void anErrorWithoutStateGetsTheUnknownOne() {
    final RuntimeException sent = RemoteErrors.withSqlState(
        new RuntimeException(new SQLException("Error while executing SQL \"x\": boom")));
    assertEquals("00000", ((AvaticaRuntimeException) sent).getSqlState());
    assertEquals("Error while executing SQL \"x\": boom",
        ((AvaticaRuntimeException) sent).getErrorMessage());
  }

  @Test void otherErrorsPassUnchanged() {
    final IllegalStateException other = new IllegalStateException("no");
    assertSame(other, RemoteErrors.withSqlState(other));
  }
}
