package io.shardset.cli.server.pg;

import io.shardset.calcite.guard.AuditLog;
import io.shardset.cli.security.GuessingGuard;
import io.shardset.cli.security.UsersFile;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;

/**
 * Who may connect to a {@link PgListener} and how they prove it.
 *
 * @param file the server's users, null for a server without authentication (loopback only)
 * @param roles the roles of which a user needs one
 * @param guard what slows password guessing, shared with the server's other protocol
 * @param audit the audit trail, which records refusals
 * @param mockKey a secret of the server, from which the made-up SCRAM salts of unknown users
 *     are derived, so that the same name gets the same salt every time
 * @param random the source of nonces and backend keys
 */
public record PgUsers(@Nullable UsersFile file, List<String> roles, GuessingGuard guard,
    AuditLog audit, byte[] mockKey, SecureRandom random) {
  public PgUsers {
    roles = List.copyOf(roles);
    mockKey = mockKey.clone();
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(audit, "audit");
    Objects.requireNonNull(random, "random");
  }

  @Override public byte[] mockKey() {
    return mockKey.clone();
  }
}
