package io.shardset.cli.server;

import java.util.function.Predicate;

/**
 * Who may write through a server: nobody when the server is read-only; everybody on a server
 * without authentication (only a loopback address may go without it, see
 * {@link ShardSetServer#start}); else the users with the role {@value #WRITE_ROLE} and not the
 * role {@value #READ_ROLE}.
 *
 * <p>A user with neither role only queries: writes are new, so a realm file written before
 * them grants none, and an operator grants them by adding {@value #WRITE_ROLE} to the users
 * who need them. {@value #READ_ROLE} wins over {@value #WRITE_ROLE}, the stricter of two
 * grants that contradict each other.
 *
 * @param serverReadOnly whether nobody writes ({@code --read-only})
 * @param authenticated whether users authenticate ({@code --users})
 */
public record WriteAccess(boolean serverReadOnly, boolean authenticated) {
  /** The role of the users who may write. */
  public static final String WRITE_ROLE = "write";
  /** The role of the users who only query. */
  public static final String READ_ROLE = "read";

  /** The access of a server with these settings. */
  public static WriteAccess of(ServerSettings settings) {
    return new WriteAccess(settings.readOnly(), settings.users() != null);
  }

  /**
   * Whether a user may write.
   *
   * @param hasRole whether the user has a role of the realm file
   */
  public boolean mayWrite(Predicate<String> hasRole) {
    if (serverReadOnly) {
      return false;
    }
    if (!authenticated) {
      return true;
    }
    return hasRole.test(WRITE_ROLE) && !hasRole.test(READ_ROLE);
  }

  /** Why a user who may not write may not, for the refusal's message. */
  String whyReadOnly(String user) {
    return serverReadOnly ? "the server is read-only"
        : "user " + user + " has no role '" + WRITE_ROLE + "'"
            + " (or has the role '" + READ_ROLE + "')";
  }
}
