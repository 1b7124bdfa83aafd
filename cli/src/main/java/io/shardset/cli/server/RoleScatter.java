package io.shardset.cli.server;

import io.shardset.model.ScatterLimit;

import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The scatter limit a server gives the connections of the users with a role
 * ({@code --role-scatter ROLE=MODE[:MAX_SHARDS]}): it replaces the model's limits for every
 * table those users read or change, as a connection's own setting does.
 *
 * @param role the role
 * @param limit the limit of its users' connections
 */
public record RoleScatter(String role, ScatterLimit limit) {
  public RoleScatter {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(limit, "limit");
  }

  /**
   * Reads {@code ROLE=MODE} or {@code ROLE=MODE:MAX_SHARDS}, as in {@code app=deny:4}.
   *
   * @throws IllegalArgumentException saying what the text should be
   */
  public static RoleScatter parse(String text) {
    final int equals = text.indexOf('=');
    if (equals <= 0) {
      throw new IllegalArgumentException("role scatter '" + text + "': expected"
          + " ROLE=MODE[:MAX_SHARDS], as in app=deny:4");
    }
    final String role = text.substring(0, equals).trim();
    final String setting = text.substring(equals + 1).trim();
    final int colon = setting.indexOf(':');
    final String mode = colon < 0 ? setting : setting.substring(0, colon);
    Integer maxShards = null;
    if (colon >= 0) {
      try {
        maxShards = Integer.valueOf(setting.substring(colon + 1).trim());
      } catch (NumberFormatException e) {
        maxShards = 0;
      }
      if (maxShards < 1) {
        throw new IllegalArgumentException("role scatter '" + text + "': the most shards"
            + " must be a positive integer");
      }
    }
    try {
      return new RoleScatter(role, ScatterLimit.of(mode, maxShards, "role '" + role + "'"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("role scatter '" + text + "': " + e.getMessage(), e);
    }
  }

  /** The limit of a user: that of the first of {@code settings} whose role the user has, or
   * null when the user has none of them. */
  static ScatterLimit of(List<RoleScatter> settings, Predicate<String> hasRole) {
    for (RoleScatter setting : settings) {
      if (hasRole.test(setting.role())) {
        return setting.limit();
      }
    }
    return null;
  }
}
