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
      rollback(connection, e);
      throw e;
    } finally {
      restoreAutoCommit(connection);
    }
  }

  /** Rolls back after a failure, keeping the failure as the error to report. */
  static void rollback(Connection connection, Throwable failure) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /** Turns autocommit back on before the connection returns to its pool. */
  static void restoreAutoCommit(Connection connection) {
    try {
      connection.setAutoCommit(true);
    } catch (SQLException e) {
      // A broken connection: the pool checks it before handing it out again.
    }
  }
}
