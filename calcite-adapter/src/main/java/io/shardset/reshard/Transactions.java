package io.shardset.reshard;

import java.sql.Connection;
import java.sql.SQLException;

/** Runs work in one local transaction of a shard: committed whole, or rolled back whole. */
final class Transactions {
  /** Work on a connection. */
  @FunctionalInterface
  interface Work<T> {
    T run() throws SQLException;
  }

  private Transactions() {
  }

  /** Runs the work with autocommit off, commits it, and rolls it back if anything throws. */
  static <T> T run(Connection connection, Work<T> work) throws SQLException {
    connection.setAutoCommit(false);
    try {
      T result = work.run();
      connection.commit();
      return result;
    } catch (Throwable e) {
      try {
        connection.rollback();
      } catch (SQLException rollback) {
        e.addSuppressed(rollback);
      }
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }
}
