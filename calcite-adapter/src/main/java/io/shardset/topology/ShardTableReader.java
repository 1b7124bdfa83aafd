package io.shardset.topology;

import io.shardset.model.ColumnDefault;
import io.shardset.model.ColumnInfo;
import io.shardset.model.ModelException;
import io.shardset.model.PhysicalTable;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/** Finds a table's physical table on one shard and reads its columns from JDBC metadata. */
final class ShardTableReader {
  /**
   * H2 2.x reports its tables as {@code BASE TABLE}, PostgreSQL as {@code TABLE}, or as
   * {@code PARTITIONED TABLE} when a shard partitions its part of the table further.
   */
  private static final String[] TABLE_TYPES = {"TABLE", "BASE TABLE", "PARTITIONED TABLE"};

  private final String schema;
  private final TableSpec table;
  private final ShardSpec shard;
  private final String physicalName;
  /** The model field that names the physical table, for errors. */
  private final String field;

  ShardTableReader(String schema, TableSpec table, ShardSpec shard) {
    this(schema, table, shard, table.physicalName(), "physicalName");
  }

  /** A reader of another physical table of the table, such as a subpartition's, whose name
   * the model's {@code field} gives. */
  ShardTableReader(String schema, TableSpec table, ShardSpec shard, String physicalName,
      String field) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.table = Objects.requireNonNull(table, "table");
    this.shard = Objects.requireNonNull(shard, "shard");
    this.physicalName = Objects.requireNonNull(physicalName, "physicalName");
    this.field = Objects.requireNonNull(field, "field");
  }

  /** A table as {@link DatabaseMetaData#getTables} reports it. */
  private record TableName(String catalog, String schema, String name) {
    @Override public String toString() {
      if (schema != null) {
        return schema + "." + name;
      }
      return catalog == null ? name : catalog + "." + name;
    }
  }

  /** A column as {@link DatabaseMetaData#getColumns} reports it. */
  private record Column(int ordinal, String physicalName, ColumnInfo info) {
  }

  ShardColumns read(Connection connection) throws SQLException {
    DatabaseMetaData metaData = connection.getMetaData();
    TableName name = find(metaData, connection);
    List<Column> columns = columns(metaData, name);
    checkUniqueNames(columns);
    List<String> primaryKey = new ArrayList<>();
    for (String physical : PrimaryKeys.read(metaData, name.catalog(), name.schema(),
        name.name())) {
      columns.stream().filter(c -> c.physicalName().equals(physical)).findFirst()
          .ifPresent(c -> primaryKey.add(c.info().name()));
    }
    return new ShardColumns(
        new PhysicalTable(shard.name(), name.catalog(), name.schema(), name.name(),
            columns.stream().map(Column::physicalName).toList()),
        columns.stream().map(Column::info).toList(), primaryKey);
  }

  /** The physical table named exactly as the model says, else the one matching ignoring case. */
  private TableName find(DatabaseMetaData metaData, Connection connection)
      throws SQLException {
    List<TableName> all = new ArrayList<>();
    String schemaPattern = pattern(shard.jdbcSchema(), metaData);
    try (ResultSet tables =
             metaData.getTables(shard.jdbcCatalog(), schemaPattern, null, TABLE_TYPES)) {
      while (tables.next()) {
        TableName name = new TableName(tables.getString("TABLE_CAT"),
            tables.getString("TABLE_SCHEM"), tables.getString("TABLE_NAME"));
        // A schema pattern may match more than the schema: '_' is a wildcard.
        if (shard.jdbcSchema() == null || shard.jdbcSchema().equals(name.schema())) {
          all.add(name);
        }
      }
    }
    List<TableName> matches = all.stream().filter(t -> t.name().equals(physicalName)).toList();
    if (matches.isEmpty()) {
      matches = all.stream().filter(t -> t.name().equalsIgnoreCase(physicalName)).toList();
    }
    if (matches.size() > 1 && shard.jdbcSchema() == null) {
      // Without a jdbcSchema, the shard's queries resolve names in its current schema.
      String current = connection.getSchema();
      List<TableName> inCurrent =
          matches.stream().filter(t -> Objects.equals(t.schema(), current)).toList();
      matches = inCurrent.isEmpty() ? matches : inCurrent;
    }
    if (matches.size() > 1 && shard.jdbcCatalog() == null) {
      // MySQL and MariaDB list the tables of every database on the server as catalogs; the
      // shard's queries resolve names in its current one (the database of its URL).
      String current = connection.getCatalog();
      List<TableName> inCurrent =
          matches.stream().filter(t -> Objects.equals(t.catalog(), current)).toList();
      matches = inCurrent.isEmpty() ? matches : inCurrent;
    }
    if (matches.isEmpty()) {
      throw new ModelException(schema, table.name(), field, "table '" + physicalName
          + "' not found " + (shard.jdbcSchema() == null ? "" : "in schema '"
          + shard.jdbcSchema() + "' ") + "on shard '" + shard.name() + "'");
    }
    if (matches.size() > 1) {
      throw new ModelException(schema, table.name(), field, "table '" + physicalName
          + "' is ambiguous on shard '" + shard.name() + "': it matches "
          + matches.stream().map(TableName::toString).collect(Collectors.joining(", "))
          + "; give its exact name, or the shard's jdbcSchema");
    }
    return matches.get(0);
  }

  private List<Column> columns(DatabaseMetaData metaData, TableName name) throws SQLException {
    // Unquoted names fold to lower case on such databases (PostgreSQL) and to upper case on
    // others (H2); logical names follow the upper-case convention of SQL and Calcite.
    boolean foldsToLowerCase = metaData.storesLowerCaseIdentifiers();
    List<Column> columns = new ArrayList<>();
    try (ResultSet rs = metaData.getColumns(name.catalog(), pattern(name.schema(), metaData),
        pattern(name.name(), metaData), null)) {
      while (rs.next()) {
        if (!Objects.equals(rs.getString("TABLE_SCHEM"), name.schema())
            || !name.name().equals(rs.getString("TABLE_NAME"))) {
          continue;
        }
        String columnName = rs.getString("COLUMN_NAME");
        String logicalName = foldsToLowerCase
            && columnName.equals(columnName.toLowerCase(Locale.ROOT))
            ? columnName.toUpperCase(Locale.ROOT) : columnName;
        String typeName = rs.getString("TYPE_NAME");
        int jdbcType = jdbcType(rs.getInt("DATA_TYPE"), typeName);
        columns.add(
            new Column(rs.getInt("ORDINAL_POSITION"), columnName,
                new ColumnInfo(logicalName, jdbcType,
                    typeName == null ? ColumnInfo.jdbcTypeName(jdbcType) : typeName,
                    rs.getInt("COLUMN_SIZE"), rs.getInt("DECIMAL_DIGITS"),
                    rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls,
                    fill(rs))));
      }
    }
    columns.sort(Comparator.comparingInt(Column::ordinal));
    return columns;
  }

  /**
   * What the shard puts in the column when an INSERT leaves it out: the next value of an
   * identity or auto-increment column (PostgreSQL's {@code serial} included), a default or
   * generated value, or nothing.
   */
  private static ColumnDefault fill(ResultSet rs) throws SQLException {
    if ("YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"))) {
      return ColumnDefault.IDENTITY;
    }
    // MariaDB says "NULL" for a nullable column without a DEFAULT: NULL is no default.
    final String expression = rs.getString("COLUMN_DEF");
    return expression != null && !"NULL".equalsIgnoreCase(expression.trim())
        || "YES".equalsIgnoreCase(rs.getString("IS_GENERATEDCOLUMN"))
        ? ColumnDefault.EXPRESSION : ColumnDefault.NONE;
  }

  /** PostgreSQL reports {@code boolean} columns as {@link Types#BIT}; they are BOOLEAN. */
  private static int jdbcType(int dataType, String typeName) {
    return dataType == Types.BIT
        && ("bool".equalsIgnoreCase(typeName) || "boolean".equalsIgnoreCase(typeName))
        ? Types.BOOLEAN : dataType;
  }

  private void checkUniqueNames(List<Column> columns) {
    for (int i = 0; i < columns.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (columns.get(i).info().name().equals(columns.get(j).info().name())) {
          throw new ModelException(schema, table.name(), "columns", "columns '"
              + columns.get(j).physicalName() + "' and '" + columns.get(i).physicalName()
              + "' on shard '" + shard.name() + "' both have the logical name '"
              + columns.get(i).info().name() + "'");
        }
      }
    }
  }

  /** A metadata search pattern matching exactly this name; null for null. */
  private static String pattern(String name, DatabaseMetaData metaData) throws SQLException {
    if (name == null) {
      return null;
    }
    String escape = metaData.getSearchStringEscape();
    if (escape == null || escape.isEmpty()) {
      return name;
    }
    return name.replace(escape, escape + escape).replace("_", escape + "_")
        .replace("%", escape + "%");
  }
}
