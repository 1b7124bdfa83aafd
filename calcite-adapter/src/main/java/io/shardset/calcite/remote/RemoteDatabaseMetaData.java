package io.shardset.calcite.remote;

import io.shardset.calcite.relations.RelationRows;
import io.shardset.calcite.relations.SystemTable;
import io.shardset.session.IsolationLevels;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@link java.sql.DatabaseMetaData} of a {@code jdbc:shardset:remote:} connection:
 * Avatica's, except for what Avatica's protocol has no request for, which Avatica's client
 * answers with no rows. Primary keys, foreign keys and indexes are read from the server's
 * system tables ({@code "metadata"."PRIMARY_KEYS"}, {@code "FOREIGN_KEYS"},
 * {@code "INDEX_INFO"}, see {@link SystemTable}), in the columns and the order the embedded
 * driver gives them. Names narrowing a call are names, not patterns; null matches every one;
 * ShardSet has no catalogs, so the catalog narrows nothing.
 */
final class RemoteDatabaseMetaData extends AvaticaDatabaseMetaData {
  RemoteDatabaseMetaData(AvaticaConnection connection) {
    super(connection);
  }

  /** A ShardSet server's sessions have transactions, at three levels, with savepoints. */
  @Override public boolean supportsTransactions() {
    return true;
  }

  @Override public boolean supportsMultipleTransactions() {
    return true;
  }

  @Override public boolean supportsTransactionIsolationLevel(int level) {
    return IsolationLevels.isSupported(level);
  }

  @Override public boolean supportsSavepoints() {
    return true;
  }

  @Override public ResultSet getPrimaryKeys(String catalog, String schema, String table)
      throws SQLException {
    return query("PRIMARY_KEYS", List.of(equal("TABLE_SCHEM", schema),
        equal("TABLE_NAME", table)), RelationRows.PRIMARY_KEY_ORDER);
  }

  @Override public ResultSet getImportedKeys(String catalog, String schema, String table)
      throws SQLException {
    return query("FOREIGN_KEYS", List.of(equal("FKTABLE_SCHEM", schema),
        equal("FKTABLE_NAME", table)), RelationRows.IMPORTED_KEY_ORDER);
  }

  @Override public ResultSet getExportedKeys(String catalog, String schema, String table)
      throws SQLException {
    return query("FOREIGN_KEYS", List.of(equal("PKTABLE_SCHEM", schema),
        equal("PKTABLE_NAME", table)), RelationRows.EXPORTED_KEY_ORDER);
  }

  @Override public ResultSet getCrossReference(String parentCatalog, String parentSchema,
      String parentTable, String foreignCatalog, String foreignSchema, String foreignTable)
      throws SQLException {
    return query("FOREIGN_KEYS", List.of(equal("PKTABLE_SCHEM", parentSchema),
        equal("PKTABLE_NAME", parentTable), equal("FKTABLE_SCHEM", foreignSchema),
        equal("FKTABLE_NAME", foreignTable)), RelationRows.EXPORTED_KEY_ORDER);
  }

  @Override public ResultSet getIndexInfo(String catalog, String schema, String table,
      boolean unique, boolean approximate) throws SQLException {
    return query("INDEX_INFO", List.of(equal("TABLE_SCHEM", schema),
        equal("TABLE_NAME", table), unique ? "NOT \"NON_UNIQUE\"" : ""),
        RelationRows.INDEX_ORDER);
  }

  /** A condition that a column holds the name; empty (none) for a null name. */
  private static String equal(String column, @Nullable String name) {
    return name == null ? "" : quote(column) + " = '" + name.replace("'", "''") + "'";
  }

  private static String quote(String name) {
    return "\"" + name + "\"";
  }

  /** The rows of a system table that meet the conditions, in order; closing the result
   * closes its statement. */
  private ResultSet query(String table, List<String> conditions, List<String> order)
      throws SQLException {
    final List<String> where = new ArrayList<>();
    conditions.stream().filter(c -> !c.isEmpty()).forEach(where::add);
    final String sql = "SELECT * FROM " + quote(SystemTable.SCHEMA) + "." + quote(table)
        + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
        + " ORDER BY " + order.stream().map(RemoteDatabaseMetaData::quote)
            .collect(Collectors.joining(", "));
    final Statement statement = getConnection().createStatement();
    try {
      statement.closeOnCompletion();
      return statement.executeQuery(sql);
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }
}
