package io.shardset.cli.server.pg;

import java.util.List;
import java.util.Objects;

/**
 * The user a PostgreSQL client's session runs as.
 *
 * @param name the user's name, as the startup message gave it
 * @param roles the user's roles in the users file; none on a server without authentication
 * @param authenticated whether the user proved a password (false on a server without users)
 */
public record PgUser(String name, List<String> roles, boolean authenticated) {
  public PgUser {
    Objects.requireNonNull(name, "name");
    roles = List.copyOf(roles);
  }
}
