package io.shardset.cli.server;

import io.shardset.cli.security.GuessingGuard;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;

/**
 * How a {@link ShardSetServer} protects what crosses the network and records who did what.
 *
 * @param tls the server's key and certificate, and the authority of client certificates when
 *     clients must show one; null for plain HTTP
 * @param allowPlainHttp whether plain HTTP may serve a non-loopback address with
 *     authentication, sending passwords readable on the path (a warning each start)
 * @param audit whether the audit trail is written (see
 *     {@link io.shardset.calcite.guard.AuditLog})
 * @param guessing how repeated authentication failures are slowed
 */
public record ServerSecurity(@Nullable TlsSettings tls, boolean allowPlainHttp, boolean audit,
    GuessingGuard.Policy guessing) {
  /** Plain HTTP, which only a loopback address may serve, and no audit trail. */
  public static final ServerSecurity PLAIN =
      new ServerSecurity(null, false, false, GuessingGuard.Policy.DEFAULT);

  public ServerSecurity {
    Objects.requireNonNull(guessing, "guessing");
  }

  /** The same with TLS. */
  public ServerSecurity withTls(TlsSettings settings) {
    return new ServerSecurity(settings, allowPlainHttp, audit, guessing);
  }

  /** The same where plain HTTP may serve other hosts. */
  public ServerSecurity withPlainHttpAllowed(boolean allowed) {
    return new ServerSecurity(tls, allowed, audit, guessing);
  }

  /** The same with the audit trail on or off. */
  public ServerSecurity withAudit(boolean on) {
    return new ServerSecurity(tls, allowPlainHttp, on, guessing);
  }

  /** The same with another policy against guessing. */
  public ServerSecurity withGuessing(GuessingGuard.Policy policy) {
    return new ServerSecurity(tls, allowPlainHttp, audit, policy);
  }
}
