package io.shardset.reshard;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
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
 *
 * <p>On PostgreSQL, a writer that has sat idle in its transaction for longer than the
 * patience, holding a lock on the moving tables, is taken for stalled (its process paused,
 * or cut off: a live writer sends its next statement or its commit) and its session is ended,
 * which rolls the transaction back, as PostgreSQL's own
 * {@code idle_in_transaction_session_timeout} would: the move does not wait on a process that
 * may never come back, and no row of that transaction commits anywhere (it was not prepared
 * yet, so its other shards roll back too).
 */
final class WriteBarrier {
  /** PostgreSQL's SQLState of a lock wait that ran past {@code lock_timeout}. */
  private static final String LOCK_NOT_AVAILABLE = "55P03";

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
        final Duration patience = timeout.dividedBy(2);
        if (!lockPostgres(connection, names, patience)) {
          for (String ended : endStalledWriters(connection, tables, patience)) {
            waiting.accept("ended " + ended + " on " + shard + ": idle for over "
                + patience.toSeconds() + " s in a transaction that wrote to the moving tables");
          }
          if (!lockPostgres(connection, names, timeout.minus(patience))) {
            throw new SQLException("still locked after " + timeout.toSeconds() + " s");
          }
        }
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

  /**
   * Takes and lets go of a lock that conflicts with every writer's.
   *
   * @return false if a writer held the tables for longer than {@code wait}
   */
  private static boolean lockPostgres(Connection connection, String names, Duration wait)
      throws SQLException {
    try {
      Transactions.run(connection, () -> {
        try (Statement s = connection.createStatement()) {
          s.execute("SET LOCAL lock_timeout = '" + Math.max(1, wait.toMillis()) + "ms'");
          s.execute("LOCK TABLE " + names + " IN SHARE MODE");
        }
        return null;
      });
      return true;
    } catch (SQLException e) {
      if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Ends the sessions that have been idle in a transaction holding a writer's lock on the
   * tables for longer than {@code patience}.
   *
   * @return each session ended, as "session PID of USER"
   */
  private static List<String> endStalledWriters(Connection connection, List<TablePart> tables,
      Duration patience) throws SQLException {
    final List<String> ended = new ArrayList<>();
    try (PreparedStatement find = connection.prepareStatement("SELECT a.pid, a.usename,"
        + " pg_terminate_backend(a.pid) FROM pg_stat_activity a"
        + " WHERE a.pid <> pg_backend_pid() AND a.datname = current_database()"
        + " AND a.state IN ('idle in transaction', 'idle in transaction (aborted)')"
        + " AND a.state_change < clock_timestamp() - make_interval(secs => ?)"
        + " AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.granted"
        + " AND l.relation = ANY (?::regclass[]) AND l.mode IN ('RowExclusiveLock',"
        + " 'ShareUpdateExclusiveLock', 'ShareRowExclusiveLock', 'ExclusiveLock',"
        + " 'AccessExclusiveLock'))")) {
      find.setDouble(1, patience.toMillis() / 1000.0);
      find.setArray(2, connection.createArrayOf("text",
          tables.stream().map(TablePart::table).distinct().toArray()));
      try (ResultSet rows = find.executeQuery()) {
        while (rows.next()) {
          if (rows.getBoolean(3)) {
            ended.add("session " + rows.getInt(1) + " of " + rows.getString(2));
          }
        }
      }
    }
    return ended;
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
