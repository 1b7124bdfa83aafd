package io.shardset.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** Closing many connections at once, so that one failure does not leave the others open. */
final class Connections {
  private Connections() {
  }

  /** Closes every connection; throws the first failure with the others suppressed. */
  static void closeAll(List<Connection> connections) throws SQLException {
    SQLException failure = null;
    for (Connection c : connections) {
      try {
        c.close();
      } catch (SQLException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
