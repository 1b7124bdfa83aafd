package io.shardset.topology;

import io.shardset.model.PhysicalTable;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Reads a logical table's primary key from its first shard's JDBC metadata
 * ({@link java.sql.DatabaseMetaData#getPrimaryKeys}): the shards hold the same table, so one
 * physical table says it for all. Writes that address rows by key (upsert) ask it.
 */
public final class PrimaryKeyReader {
  private PrimaryKeyReader() {
  }

  /**
   * The table column index of each primary-key column, in key order; empty if the physical
   * table has no primary key.
   *
   * @throws java.sql.SQLException if the first shard cannot be reached, or its key names a
   *     column the logical table does not have
   */
  public static List<Integer> read(ShardedTable table) throws SQLException {
    final ShardSite site = table.site(0);
    final PhysicalTable physical = table.layout().shards().get(0);
    final TreeMap<Short, String> names = new TreeMap<>();
    try (Connection connection = site.endpoint().connect();
        ResultSet rs = connection.getMetaData().getPrimaryKeys(physical.catalog(),
            physical.schema(), physical.table())) {
      while (rs.next()) {
        names.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME"));
      }
    }
    final List<Integer> columns = new ArrayList<>();
    for (String name : names.values()) {
      final int index = physical.columns().indexOf(name);
      if (index < 0) {
        throw new SQLException("table " + table.qualifiedName() + ": primary key column '"
            + name + "' on shard '" + site.name() + "' is not a column of the table");
      }
      columns.add(index);
    }
    return List.copyOf(columns);
  }
}
