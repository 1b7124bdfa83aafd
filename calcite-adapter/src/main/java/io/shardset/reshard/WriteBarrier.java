package io.shardset.reshard;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Waits, on a source shard, until every transaction that has written to the tables a move
 * carries has ended: a writer of a process that lost its lease while its rows were written but
 * not yet committed (it was paused, say, and a move went on without it) commits them before
 * the rows are detached, never after. The shard's own table locks do the waiting: a lock that
 * conflicts with every writer's, taken and let go at once. PostgreSQL and MariaDB shards wait
 * so; H2 has no such lock, and its shards do not wait.
 */
final class WriteBarrier {
  private WriteBarrier() {
  }

  /**
   * Waits until no open transaction has written to {@code tables} of the shard.
   *
   * @throws IllegalStateException if one is still open after {@code timeout}
   */
  static void pass(Connection connection, String shard, List<TablePart> tables,
      Duration timeout) throws SQLException {
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
      }
    } catch (SQLException e) {
      throw new IllegalStateException("a transaction on shard " + shard + " that wrote to "
          + names + " did not end within " + timeout.toSeconds() + " s; resume the move once"
          + " it has: " + e.getMessage(), e);
    }
  }
}
