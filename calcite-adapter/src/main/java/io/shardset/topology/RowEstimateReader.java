package io.shardset.topology;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Reads how many rows a physical table holds, as its database's own catalog estimates it:
 * cheap (no table is scanned) and as fresh as the database keeps it.
 *
 * <ul>
 *   <li>PostgreSQL: {@code pg_class.reltuples}, which ANALYZE and VACUUM set; for a table they
 *   never saw (-1, or 0 before PostgreSQL 14), the statistics system's count of live rows,
 *   {@code pg_stat_all_tables.n_live_tup}, which inserts and deletes keep up to date;</li>
 *   <li>H2 2.x: {@code INFORMATION_SCHEMA.TABLES.ROW_COUNT_ESTIMATE};</li>
 *   <li>MariaDB: {@code information_schema.TABLES.TABLE_ROWS} (InnoDB's estimate);</li>
 *   <li>other databases: unknown.</li>
 * </ul>
 * The table is named as the shard's SQL names it (see {@link ShardSite#qualifiedName()}): an
 * unqualified name is looked up where the shard's SQL would find it.
 */
public final class RowEstimateReader {
  /**
   * What every query of this class starts with, so that a database administrator (or a test
   * counting what queries send) can tell these reads from the statements of queries.
   */
  public static final String MARKER = "/* shardset row estimate */ ";
  private static final String POSTGRESQL = MARKER + "SELECT c.reltuples, s.n_live_tup"
      + " FROM pg_class c LEFT JOIN pg_stat_all_tables s ON s.relid = c.oid"
      + " WHERE c.oid = to_regclass(?)";
  private static final String H2 = MARKER + "SELECT ROW_COUNT_ESTIMATE"
      + " FROM INFORMATION_SCHEMA.TABLES"
      + " WHERE TABLE_SCHEMA = COALESCE(?, CURRENT_SCHEMA) AND TABLE_NAME = ?";
  private static final String MARIADB = MARKER + "SELECT TABLE_ROWS FROM information_schema.TABLES"
      + " WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?";

  private RowEstimateReader() {
  }

  /**
   * The row estimate of a table on a shard; empty when the shard's database keeps none that
   * ShardSet knows how to read, or none for this table.
   *
   * @param quoting how the shard quotes names, for PostgreSQL's {@code to_regclass}
   * @param qualifiedName the table's name as the shard's SQL says it
   * @throws SQLException if the catalog cannot be read
   */
  public static OptionalLong read(Connection connection, IdentifierQuoting quoting,
      List<String> qualifiedName) throws SQLException {
    final String product = connection.getMetaData().getDatabaseProductName()
        .trim().toLowerCase(Locale.ROOT);
    final String table = qualifiedName.get(qualifiedName.size() - 1);
    final @Nullable String qualifier = qualifiedName.size() > 1
        ? qualifiedName.get(qualifiedName.size() - 2) : null;
    switch (product) {
    case "postgresql":
      return postgresql(connection, quoting.qualified(qualifiedName));
    case "h2":
      return single(connection, H2, qualifier, table);
    case "mariadb":
      return single(connection, MARIADB, qualifier, table);
    default:
      return OptionalLong.empty();
    }
  }

  private static OptionalLong postgresql(Connection connection, String quotedName)
      throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(POSTGRESQL)) {
      s.setString(1, quotedName);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return OptionalLong.empty();
        }
        final double analyzed = rs.getDouble(1);
        if (analyzed > 0) {
          return OptionalLong.of(Math.round(analyzed));
        }
        final long live = rs.getLong(2);
        return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(live);
      }
    }
  }

  private static OptionalLong single(Connection connection, String sql,
      @Nullable String qualifier, String table) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(sql)) {
      s.setString(1, qualifier);
      s.setString(2, table);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return OptionalLong.empty();
        }
        final long rows = rs.getLong(1);
        return rs.wasNull() || rows < 0 ? OptionalLong.empty() : OptionalLong.of(rows);
      }
    }
  }
}
