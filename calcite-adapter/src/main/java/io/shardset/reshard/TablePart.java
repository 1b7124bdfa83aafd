package io.shardset.reshard;

import io.shardset.model.MoveTables;
import io.shardset.topology.ShardSite;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One physical table of a moving table on one shard (the table, or one subpartition table),
 * with its move table, named as the shard's SQL says them.
 *
 * @param shard the shard's name
 * @param site the physical table on the shard
 */
record TablePart(String shard, ShardSite site) {
  TablePart {
    Objects.requireNonNull(shard, "shard");
    Objects.requireNonNull(site, "site");
  }

  /** The physical table, quoted and qualified. */
  String table() {
    return site.quotedName();
  }

  /** The move table, quoted and qualified as the table is. */
  String twin() {
    List<String> names = new ArrayList<>(site.qualifiedName());
    names.set(names.size() - 1, twinName());
    return site.quoting().qualified(names);
  }

  /** The move table's name, unquoted. */
  String twinName() {
    List<String> names = site.qualifiedName();
    return MoveTables.name(names.get(names.size() - 1));
  }

  /** The columns in logical order, quoted and comma-separated. */
  String columns() {
    return site.physicalColumns().stream().map(site.quoting()::quote)
        .collect(Collectors.joining(", "));
  }

  /** The quoted physical names of the columns at these logical positions. */
  List<String> columns(List<Integer> logical) {
    return logical.stream()
        .map(i -> site.quoting().quote(site.physicalColumns().get(i))).toList();
  }

  /**
   * Whether the move table exists: the shard's metadata lists a table of its exact name in
   * the table's schema (the connection's own when the model does not qualify the table).
   */
  boolean twinExists(Connection connection) throws SQLException {
    DatabaseMetaData metaData = connection.getMetaData();
    String escape = metaData.getSearchStringEscape();
    String pattern = escape == null || escape.isEmpty() ? twinName()
        : twinName().replace(escape, escape + escape).replace("_", escape + "_")
            .replace("%", escape + "%");
    List<String> qualifiers = site.qualifiedName().subList(0, site.qualifiedName().size() - 1);
    String schema = connection.getSchema();
    String catalog = connection.getCatalog();
    try (ResultSet tables = metaData.getTables(null, null, pattern, null)) {
      while (tables.next()) {
        String cat = tables.getString("TABLE_CAT");
        String schem = tables.getString("TABLE_SCHEM");
        if (!tables.getString("TABLE_NAME").equals(twinName())) {
          continue;
        }
        // Drivers that have no catalogs (PostgreSQL's) or schemas report them as null.
        boolean here = qualifiers.isEmpty()
            ? matches(schema, schem) && matches(catalog, cat)
            : qualifiers.get(qualifiers.size() - 1).equals(schem)
                || qualifiers.get(qualifiers.size() - 1).equals(cat);
        if (here) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a table's catalog or schema is the connection's, where both are known. */
  private static boolean matches(String connection, String table) {
    return connection == null || table == null || connection.equals(table);
  }
}
