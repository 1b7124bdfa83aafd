package io.shardset.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;

/**
 * ORDERS_W, the table the write workloads write into: the columns, key and index of ORDERS,
 * sharded the same way (by consistent hash on CUSTOMER_ID), on every shard and in X's and S's
 * configuration, and in no read workload. Writing here rather than into ORDERS keeps the read
 * workloads' data the same from run to run. Each run creates it anew (so a run that stopped
 * halfway leaves nothing behind for the next) and empties it after each write workload.
 */
public final class WriteTable {
  /** The table's name. */
  public static final String NAME = "ORDERS_W";
  /** The columns an INSERT names, in the order of {@link BenchData#order}. */
  static final String COLUMNS = "ORDER_ID, CUSTOMER_ID, ORDER_DATE, STATUS, TOTAL";
  /** The values of one row of an INSERT. */
  private static final String ROW = "(?, ?, ?, ?, ?)";
  /** Empties the table on one shard; every backend of the benchmark has TRUNCATE TABLE. */
  static final String CLEAR = "TRUNCATE TABLE " + NAME;
  /** How long dropping or emptying the table may wait for locks on it. */
  private static final int LOCK_WAIT_SECONDS = 60;

  private WriteTable() {
  }

  /** The statements that drop the table of an earlier run on a shard and create it empty. */
  static List<String> recreate() {
    return List.of(
        "DROP TABLE IF EXISTS " + NAME,
        "CREATE TABLE " + NAME + " " + BenchData.ORDERS_COLUMNS,
        "ALTER TABLE " + NAME + " ADD PRIMARY KEY (ORDER_ID)",
        "CREATE INDEX " + NAME + "_CUSTOMER ON " + NAME + " (CUSTOMER_ID)");
  }

  /** An INSERT of {@code rows} orders, each row's five values as {@link BenchData#order}. */
  static String insert(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("an INSERT needs at least one row: " + rows);
    }
    return "INSERT INTO " + NAME + " (" + COLUMNS + ") VALUES "
        + String.join(", ", Collections.nCopies(rows, ROW));
  }

  /** Creates the table anew on every shard of {@code db}. */
  static void create(BenchDatabase db) throws SQLException {
    final List<JdbcEndpoint> shards = db.shards();
    for (int i = 0; i < shards.size(); i++) {
      try (Connection c = shards.get(i).connect()) {
        execute(c, i, recreate());
      }
    }
  }

  /** Empties the table on every shard, through the shards' own connections (s0 first). */
  static void clear(List<Connection> shards) throws SQLException {
    for (int i = 0; i < shards.size(); i++) {
      execute(shards.get(i), i, List.of(CLEAR));
    }
  }

  /**
   * Runs the statements on shard {@code shard}, each with a time limit: dropping or emptying
   * the table waits for every lock on it, and a transaction left open (or prepared and never
   * resolved) by a system under test would otherwise stop the benchmark for good.
   */
  private static void execute(Connection shard, int index, List<String> statements)
      throws SQLException {
    try (Statement s = shard.createStatement()) {
      s.setQueryTimeout(LOCK_WAIT_SECONDS);
      for (String sql : statements) {
        try {
          s.execute(sql);
        } catch (SQLException e) {
          throw new SQLException("cannot run " + sql + " on shard s" + index + " (is " + NAME
              + " locked by a transaction left open or prepared?): " + e.getMessage(), e);
        }
      }
    }
  }
}
