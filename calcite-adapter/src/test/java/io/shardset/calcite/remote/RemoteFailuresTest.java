package io.shardset.calcite.remote;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.AvaticaSqlException;
import org.apache.calcite.avatica.remote.Service;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The SQLException a {@code jdbc:shardset:remote:} client gets for an error the server sent,
 * as Avatica's client receives it; ClientErrorsTest in the cli module checks them against a
 * live server and {@code jdbc:shardset:}.
 */
class RemoteFailuresTest {
  private static final String REASON = "From line 1, column 15 to line 1, column 18:"
      + " Object 'NOPE' not found";

  /** The error as Avatica's client makes it from the server's response. */
  private static AvaticaClientRuntimeException received(String reason, String state) {
    return new Service.ErrorResponse(List.of(reason), reason, 7, state, AvaticaSeverity.ERROR,
        new Service.RpcMetadataResponse("shardset:8765")).toException();
  }

  @Test void theServersErrorHasItsReasonStateAndCodeAndIsTheCause() {
    final SQLException e = RemoteFailures.of(received(REASON, "42S02"));
    assertEquals(SQLException.class, e.getClass());
    assertEquals(REASON, e.getMessage());
    assertEquals("42S02", e.getSQLState());
    assertEquals(7, e.getErrorCode());
    final AvaticaSqlException server = assertInstanceOf(AvaticaSqlException.class, e.getCause());
    assertEquals("Error 7 (42S02) : " + REASON, server.getMessage());
    assertEquals(List.of(REASON), server.getStackTraces());
    assertEquals("shardset:8765", server.getRemoteServer());
  }

  @Test void aStatementOutOfTimeIsATimeout() {
    final String reason = "shard 's3' failed: query timeout of 1 s elapsed";
    final SQLException e = RemoteFailures.of(received(reason, "57014"));
    assertInstanceOf(SQLTimeoutException.class, e);
    assertEquals(reason, e.getMessage());
    assertEquals("57014", e.getSQLState());
  }

  /** A transport's failure, or the client's own, is not the server's: Avatica words it. */
  @Test void otherFailuresAreNotTheServers() {
    assertNull(RemoteFailures.of(new AvaticaClientRuntimeException("Failed to execute HTTP"
        + " Request, got HTTP/500", new IOException("boom"))));
    assertNull(RemoteFailures.of(new IllegalStateException("Remote driver error: " + REASON)));
  }

  /** Avatica's stateless wrapper of a stated SQLException gives way to what it wraps. */
  @Test void avaticasStatelessWrapperIsUnwrapped() {
    final SQLException server = RemoteFailures.of(received(REASON, "42S02"));
    assertSame(server, RemoteFailures.unwrap(new SQLException(REASON, server)));
    final SQLException stated = new SQLException("closed", "08003");
    assertSame(stated, RemoteFailures.unwrap(stated));
    final SQLException stateless = new SQLException("boom", new SQLException("cause"));
    assertSame(stateless, RemoteFailures.unwrap(stateless));
  }
}
