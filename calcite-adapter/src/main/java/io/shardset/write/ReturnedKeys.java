package io.shardset.write;

import io.shardset.model.ColumnDefault;
import io.shardset.model.ColumnInfo;
import io.shardset.topology.ShardSite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The values the shards gave the columns an INSERT left to them, read back as JDBC's
 * generated keys, by the ordinal of the row in the statement. PostgreSQL and H2 return the
 * columns asked for by name; MariaDB returns only the value of an AUTO_INCREMENT column
 * ({@code insert_id}), so one such column is all it can be asked for, and anything else is
 * refused before the row is sent.
 */
final class ReturnedKeys {
  /** SQLState of keys a shard cannot return (feature not supported). */
  static final String NOT_SUPPORTED = "0A000";

  private final List<Integer> columns;
  private final List<ColumnInfo> layout;
  private final Map<Integer, Object[]> byRow = new HashMap<>();

  /**
   * Keys read back for {@code columns}, the logical columns the INSERT leaves out, of a table
   * with these columns.
   */
  ReturnedKeys(List<Integer> columns, List<ColumnInfo> layout) {
    this.columns = List.copyOf(columns);
    this.layout = List.copyOf(layout);
  }

  /**
   * Prepares an INSERT at a site that returns the columns' values.
   *
   * @throws SQLException (0A000) before anything is sent, when the shard cannot return them
   */
  PreparedStatement prepare(Connection connection, ShardSite site, String sql)
      throws SQLException {
    final String product = connection.getMetaData().getDatabaseProductName();
    if (("MariaDB".equalsIgnoreCase(product) || "MySQL".equalsIgnoreCase(product))
        && !(columns.size() == 1 && layout.get(columns.get(0)).fill() == ColumnDefault.IDENTITY)) {
      throw new SQLException(product + " returns the value of an AUTO_INCREMENT column alone"
          + " as a generated key, not of " + columns.stream().map(c -> layout.get(c).name())
          .collect(Collectors.joining(", ")), NOT_SUPPORTED);
    }
    final String[] names = columns.stream().map(site.physicalColumns()::get)
        .toArray(String[]::new);
    return connection.prepareStatement(sql, names);
  }

  /**
   * Reads the keys of the rows the statement just inserted, the {@code i}th for the row of
   * ordinal {@code ordinals.get(i)}.
   *
   * @throws SQLException (0A000) for keys the shard cannot return
   */
  void read(Statement statement, List<Integer> ordinals, ShardSite site) throws SQLException {
    try (ResultSet keys = statement.getGeneratedKeys()) {
      final boolean byLabel = keys.getMetaData().getColumnCount() >= columns.size();
      int row = 0;
      while (keys.next() && row < ordinals.size()) {
        final Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = byLabel ? keys.getObject(position(keys, site, i)) : keys.getObject(1);
        }
        byRow.put(ordinals.get(row++), values);
      }
    }
  }

  /** The position in the keys' result of the {@code i}th column asked for. */
  private int position(ResultSet keys, ShardSite site, int i) throws SQLException {
    final String name = site.physicalColumns().get(columns.get(i));
    final int count = keys.getMetaData().getColumnCount();
    for (int c = 1; c <= count; c++) {
      if (keys.getMetaData().getColumnLabel(c).equalsIgnoreCase(name)) {
        return c;
      }
    }
    return i + 1;
  }

  /** The values read back for the row of this ordinal, or null. */
  Object[] of(int ordinal) {
    return byRow.get(ordinal);
  }
}
