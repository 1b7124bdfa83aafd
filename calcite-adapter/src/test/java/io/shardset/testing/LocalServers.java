package io.shardset.testing;

import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Skips, or fails where an environment variable requires the server, tests whose database
 * server on this machine cannot be reached.
 */
final class LocalServers {
  /** Opens an administrative connection to a server. */
  interface Admin {
    Connection connect() throws SQLException;
  }

  private LocalServers() {
  }

  /**
   * Returns if {@code admin} connects; otherwise fails when {@code requireVariable} is
   * {@code 1}, and skips the calling test with a visible message when not.
   */
  static void require(String server, String requireVariable, Admin admin) {
    final String problem = unreachable(admin);
    if (problem == null) {
      return;
    }
    final String message = server + " is not reachable (" + problem + ")";
    if ("1".equals(System.getenv(requireVariable))) {
      throw new AssertionError(message + "; " + requireVariable + "=1 requires it");
    }
    System.err.println("SKIPPED: " + message);
    Assumptions.abort(message);
  }

  private static String unreachable(Admin admin) {
    try (Connection c = admin.connect()) {
      return c.isValid(5) ? null : "connection not valid";
    } catch (SQLException e) {
      return e.getMessage();
    }
  }
}
