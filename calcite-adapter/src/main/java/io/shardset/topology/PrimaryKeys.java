package io.shardset.topology;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeMap;

/**
 * Reads a physical table's primary key from its shard's JDBC metadata: the table layout keeps
 * it (writes find rows by it), and the resharding tool creates new tables with it.
 */
public final class PrimaryKeys {
  private PrimaryKeys() {
  }

  /**
   * The physical names of a table's primary key columns, in key order; empty if it has none.
   *
   * @param catalog the table's catalog, as {@link DatabaseMetaData#getTables} reported it
   * @param schema the table's schema, likewise
   * @param table the table's exact name
   */
  public static List<String> read(DatabaseMetaData metaData, String catalog, String schema,
      String table) throws SQLException {
    final TreeMap<Short, String> columns = new TreeMap<>();
    try (ResultSet rs = metaData.getPrimaryKeys(catalog, schema, table)) {
      while (rs.next()) {
        columns.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME"));
      }
    }
    return List.copyOf(columns.values());
  }
}
