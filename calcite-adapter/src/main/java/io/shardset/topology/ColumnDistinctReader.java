package io.shardset.topology;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads how many distinct values each column of a physical table holds, as its database's own
 * statistics estimate them, so that the planner can tell a join on a key (one match per row)
 * from a join on a column of a few values (TPC-H's nation keys, where a join of customers with
 * suppliers makes millions of rows of thousands).
 *
 * <ul>
 *   <li>PostgreSQL: {@code pg_stats.n_distinct}, which ANALYZE sets: a count, or, negated, a
 *   fraction of the table's rows (-1 for a unique column);</li>
 *   <li>other databases: none (the planner guesses, as without this reader).</li>
 * </ul>
 * The table is named as the shard's SQL names it (see {@link ShardSite#qualifiedName()}).
 */
public final class ColumnDistinctReader {
  private static final String POSTGRESQL = RowEstimateReader.MARKER
      + "SELECT s.attname, s.n_distinct FROM pg_class c"
      + " JOIN pg_namespace n ON n.oid = c.relnamespace"
      + " JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname"
      + " WHERE c.oid = to_regclass(?)";

  private ColumnDistinctReader() {
  }

  /**
   * The statistics' distinct values of each column the shard's database keeps them for, by
   * physical column name: a count, or, below zero, minus the fraction of the table's rows (as
   * PostgreSQL keeps them). Empty when the database keeps none that ShardSet knows how to read.
   *
   * @param quoting how the shard quotes names
   * @param qualifiedName the table's name as the shard's SQL says it
   * @throws SQLException if the catalog cannot be read
   */
  public static Map<String, Double> read(Connection connection, IdentifierQuoting quoting,
      List<String> qualifiedName) throws SQLException {
    final String product = connection.getMetaData().getDatabaseProductName()
        .trim().toLowerCase(Locale.ROOT);
    if (!product.equals("postgresql")) {
      return Map.of();
    }
    final Map<String, Double> distinct = new HashMap<>();
    try (PreparedStatement s = connection.prepareStatement(POSTGRESQL)) {
      s.setString(1, quoting.qualified(qualifiedName));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          final double values = rs.getDouble(2);
          if (!rs.wasNull() && values != 0) {
            distinct.put(rs.getString(1), values);
          }
        }
      }
    }
    return Map.copyOf(distinct);
  }
}
