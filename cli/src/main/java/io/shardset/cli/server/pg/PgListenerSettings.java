package io.shardset.cli.server.pg;

import io.netty.handler.ssl.SslContext;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link PgListener} serves clients.
 *
 * @param bind the host name or address to listen on
 * @param port the port, 0 for any free one
 * @param tls what answers an SSLRequest with TLS, or null to refuse it (the client then
 *     goes on in plain text, or gives up, as it is told)
 * @param users the users and how they authenticate
 * @param maxClients how many clients may be connected at once; more are refused
 *     ({@code 53300}, as PostgreSQL's {@code max_connections} refuses them)
 * @param maxMessageBytes the longest message a client may send
 * @param writeTimeout how long a client may read nothing while the server has rows for it
 *     before its connection is closed and its statement ends
 * @param statementTimeoutSeconds the server's limit on any statement, 0 for none
 */
public record PgListenerSettings(String bind, int port, @Nullable SslContext tls,
    PgUsers users, int maxClients, int maxMessageBytes, Duration writeTimeout,
    int statementTimeoutSeconds) {
  /** {@link #maxClients} unless set otherwise. */
  public static final int DEFAULT_MAX_CLIENTS = 256;
  /** {@link #maxMessageBytes} unless set otherwise. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  public PgListenerSettings {
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(users, "users");
    Objects.requireNonNull(writeTimeout, "writeTimeout");
  }
}
