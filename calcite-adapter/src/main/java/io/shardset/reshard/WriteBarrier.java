package io.shardset.reshard;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Waits, on a source shard, until every transaction that has written to the tables a move
 * carries has ended: a writer of a process that lost its lease while its rows were written but
 * not yet committed (it was paused, say, and a move went on without it) commits them before
 * the rows are detached, never after. On PostgreSQL and MariaDB the shard's own table locks do
 * the waiting: a lock that conflicts with every writer's, taken and let go at once. H2 has no
 * such lock: there the barrier waits until each session that held uncommitted changes when it
 * looked has been seen without any (coarser: it waits for writes to any table).
 */
final class WriteBarrier {
  private WriteBarrier() {
  }

  /**
   * Waits until no open transaction has written to {@code tables} of the shard.
   *
   * @param waiting told what it waits for, where it can tell before waiting (H2)
   * @throws IllegalStateException if one is still open after {@code timeout}
   */
  static void pass(Connection connection, String shard, List<TablePart> tables,
      Duration timeout, Consumer<String> waiting) throws SQLException {
    final String product = connection.getMetaData().getDatabaseProductName()
        .toLowerCase(Locale.ROOT);
    final String names = tables.stream().map(TablePart::table).distinct()
        .collect(Collectors.joining(", "));
    try {
      if (product.contains("postgres")) {
        Transactions.run(connection, () -> {
          try (Statement s = connection.createStatement()) {
            s.execute("SET LOCAL lock_timeout = '" + timeout.toMillis() + "ms'");
            s.execute("LOCK TABLE " + names + " IN SHARE MODE");
          }
          return null;
        });
      } else if (product.contains("mariadb") || product.contains("mysql")) {
        try (Statement s = connection.createStatement()) {
          s.execute("SET SESSION lock_wait_timeout = " + Math.max(1, timeout.toSeconds()));
          s.execute("LOCK TABLES " + tables.stream().map(t -> t.table() + " READ").distinct()
              .collect(Collectors.joining(", ")));
          s.execute("UNLOCK TABLES");
        }
      } else if (product.contains("h2")) {
        awaitH2Sessions(connection, shard, timeout, waiting);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the writes on shard "
          + shard, e);
    } catch (SQLException e) {
      throw new IllegalStateException("a transaction on shard " + shard + " that wrote to "
          + names + " did not end within " + timeout.toSeconds() + " s; resume the move once"
          + " it has: " + e.getMessage(), e);
    }
  }

  /** H2: waits until every other session seen with uncommitted changes was seen without. */
  private static void awaitH2Sessions(Connection connection, String shard, Duration timeout,
      Consumer<String> waiting) throws SQLException, InterruptedException {
    final long deadline = System.nanoTime() + timeout.toNanos();
    final Set<Long> open = uncommittedSessions(connection);
    if (!open.isEmpty()) {
      waiting.accept("waiting for " + open.size() + " session" + (open.size() == 1 ? "" : "s")
          + " with uncommitted writes on " + shard);
    }
    while (!open.isEmpty()) {
      if (System.nanoTime() - deadline > 0) {
        throw new SQLException(open.size() + " session" + (open.size() == 1 ? "" : "s")
            + " kept uncommitted changes");
      }
      TimeUnit.MILLISECONDS.sleep(20);
      open.retainAll(uncommittedSessions(connection));
    }
  }

  private static Set<Long> uncommittedSessions(Connection connection) throws SQLException {
    final Set<Long> sessions = new HashSet<>();
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT SESSION_ID FROM INFORMATION_SCHEMA.SESSIONS"
             + " WHERE CONTAINS_UNCOMMITTED AND SESSION_ID <> SESSION_ID()")) {
      while (rs.next()) {
        sessions.add(rs.getLong(1));
      }
    }
    return sessions;
  }
}
