package io.shardset.reshard;

import io.shardset.model.ColumnInfo;
import io.shardset.model.PhysicalTable;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.topology.PrimaryKeys;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates a physical table on a new shard as it is on a source shard of the same database
 * product: same column names, types, nullability and primary key; no other keys, indexes,
 * defaults or constraints.
 */
final class TableCreator {
  private static final String[] TABLE_TYPES = {"TABLE", "BASE TABLE", "PARTITIONED TABLE"};

  private final ShardSpec source;
  private final Connection sourceConnection;
  private final ShardSpec target;
  private final Connection targetConnection;

  TableCreator(ShardPair shards) {
    this.source = shards.source();
    this.sourceConnection = shards.sourceConnection();
    this.target = shards.target();
    this.targetConnection = shards.targetConnection();
  }

  /**
   * Creates the physical table of {@code columns} (as read from the source shard) on the target
   * shard unless a table of that name, ignoring case, exists there.
   *
   * @return whether it created the table
   * @throws IllegalStateException if the shards run different database products
   */
  boolean createIfMissing(TableSpec table, ShardColumns columns) throws SQLException {
    final String name = columns.table().table();
    if (exists(name)) {
      return false;
    }
    final String sourceProduct = sourceConnection.getMetaData().getDatabaseProductName();
    final String targetProduct = targetConnection.getMetaData().getDatabaseProductName();
    if (!sourceProduct.equalsIgnoreCase(targetProduct)) {
      throw new IllegalStateException("cannot create table '" + table.name() + "'"
          + (name.equals(table.name()) ? "" : " (physical table '" + name + "')")
          + " on new shard '" + target.name() + "' (" + targetProduct + ") from shard '"
          + source.name() + "' (" + sourceProduct + "): ShardSet copies table definitions"
          + " only between databases of the same product; create the table on shard '"
          + target.name() + "' with the columns and primary key it has on shard '"
          + source.name() + "', then run again");
    }
    try (Statement s = targetConnection.createStatement()) {
      s.execute(createTableSql(columns, primaryKey(columns.table())));
    }
    return true;
  }

  /** The CREATE TABLE statement for the target shard. */
  String createTableSql(ShardColumns columns, List<String> primaryKey) throws SQLException {
    final DatabaseMetaData metaData = targetConnection.getMetaData();
    final List<String> definitions = new ArrayList<>();
    final List<String> physical = columns.table().columns();
    for (int i = 0; i < physical.size(); i++) {
      final ColumnInfo column = columns.columns().get(i);
      definitions.add(ShardJdbc.quote(metaData, physical.get(i)) + " "
          + ColumnTypeSql.of(column) + (column.nullable() ? "" : " NOT NULL"));
    }
    if (!primaryKey.isEmpty()) {
      final List<String> quoted = new ArrayList<>();
      for (String column : primaryKey) {
        quoted.add(ShardJdbc.quote(metaData, column));
      }
      definitions.add("PRIMARY KEY (" + String.join(", ", quoted) + ")");
    }
    return "CREATE TABLE "
        + ShardJdbc.tableName(target, metaData, columns.table().table()) + " ("
        + String.join(", ", definitions) + ")";
  }

  /** The source table's primary key columns, in key order; empty if it has none. */
  private List<String> primaryKey(PhysicalTable table) throws SQLException {
    return PrimaryKeys.read(sourceConnection.getMetaData(), table.catalog(), table.schema(),
        table.table());
  }

  /**
   * Whether the target shard has a table of this name ignoring case (the name the model's
   * readers would find) in its {@code jdbcSchema}, else in its current schema and catalog.
   */
  private boolean exists(String name) throws SQLException {
    final String schema = target.jdbcSchema() != null
        ? target.jdbcSchema() : targetConnection.getSchema();
    final String catalog = target.jdbcCatalog() != null
        ? target.jdbcCatalog() : targetConnection.getCatalog();
    try (ResultSet rs = targetConnection.getMetaData()
        .getTables(target.jdbcCatalog(), null, null, TABLE_TYPES)) {
      while (rs.next()) {
        if (rs.getString("TABLE_NAME").equalsIgnoreCase(name)
            && matches(schema, rs.getString("TABLE_SCHEM"))
            && matches(catalog, rs.getString("TABLE_CAT"))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a reported name matches the expected one; an unknown side matches anything. */
  private static boolean matches(String expected, String reported) {
    return expected == null || reported == null || expected.equals(reported);
  }
}
