package io.shardset.reshard;

import org.h2.api.Trigger;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An H2 trigger that records the key (first column) of every row inserted, updated or deleted
 * in a table, so that a test can tell which rows a resharding touched.
 */
public final class TouchedRows implements Trigger {
  /** "shard/table/key" of every row touched since {@link #clear()}. */
  private static final Set<String> TOUCHED = ConcurrentHashMap.newKeySet();

  private String prefix;

  /** Installs the trigger on a table of an H2 database. */
  static void install(Connection connection, String shard, String table)
      throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TRIGGER IF NOT EXISTS \"" + shard + "/" + table + "\" AFTER INSERT,"
          + " UPDATE,"
          + " DELETE ON \"" + table + "\" FOR EACH ROW CALL '" + TouchedRows.class.getName()
          + "'");
    }
    TOUCHED.removeIf(k -> k.startsWith(shard + "/" + table + "/"));
  }

  /** Forgets every touched row. */
  static void clear() {
    TOUCHED.clear();
  }

  /** The rows touched: "shard/table/key". */
  static Set<String> touched() {
    return Set.copyOf(TOUCHED);
  }

  @Override public void init(Connection conn, String schemaName, String triggerName,
      String tableName, boolean before, int type) throws SQLException {
    prefix = triggerName + "/";
  }

  @Override public void fire(Connection conn, Object[] oldRow, Object[] newRow) {
    TOUCHED.add(prefix + (newRow != null ? newRow[0] : oldRow[0]));
  }
}
