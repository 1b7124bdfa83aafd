package io.shardset.calcite.relations;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.FilterableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A system table of {@link RelationRows}, in Calcite's {@code "metadata"} schema, which is how
 * remote clients read what Avatica's protocol has no request for: {@code PRIMARY_KEYS},
 * {@code FOREIGN_KEYS} and {@code INDEX_INFO}, each with the columns of the
 * {@link java.sql.DatabaseMetaData} call it answers, for every table of the connection's
 * ShardSet schemas. Each query reads them anew (the foreign keys and indexes from the shards).
 */
public final class SystemTable extends AbstractTable implements FilterableTable {
  /** The name of the schema that holds the tables: Calcite's own system schema. */
  public static final String SCHEMA = "metadata";

  /** The rows of one table, for a connection's root schema, narrowed to those whose named
   * columns hold the given names (the rest may remain). */
  @FunctionalInterface
  private interface Rows {
    List<Object[]> of(SchemaPlus root, Map<String, String> names) throws SQLException;
  }

  /** The tables, by name. */
  private static final Map<String, SystemTable> TABLES = Map.of(
      "PRIMARY_KEYS", new SystemTable(RelationRows.PRIMARY_KEY_COLUMNS,
          (root, names) -> RelationRows.primaryKeys(root, names.get("TABLE_SCHEM"),
              names.get("TABLE_NAME"))),
      "FOREIGN_KEYS", new SystemTable(RelationRows.FOREIGN_KEY_COLUMNS,
          (root, names) -> RelationRows.foreignKeys(root, names.get("PKTABLE_SCHEM"),
              names.get("PKTABLE_NAME"), names.get("FKTABLE_SCHEM"), names.get("FKTABLE_NAME"),
              RelationRows.IMPORTED_KEY_ORDER)),
      "INDEX_INFO", new SystemTable(RelationRows.INDEX_COLUMNS,
          (root, names) -> RelationRows.indexes(root, names.get("TABLE_SCHEM"),
              names.get("TABLE_NAME"), false)));

  private final List<MetadataColumn> columns;
  private final Rows rows;

  private SystemTable(List<MetadataColumn> columns, Rows rows) {
    this.columns = List.copyOf(columns);
    this.rows = Objects.requireNonNull(rows, "rows");
  }

  /**
   * Adds the tables to the {@code "metadata"} schema of a connection's root schema; a root
   * without that schema (a connection that asked for none) gets none.
   */
  public static void register(SchemaPlus root) {
    final SchemaPlus metadata = root.subSchemas().get(SCHEMA);
    if (metadata != null) {
      TABLES.forEach(metadata::add);
    }
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    final RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (MetadataColumn column : columns) {
      builder.add(column.name(), sqlType(column.type())).nullable(column.nullable());
    }
    return builder.build();
  }

  private static SqlTypeName sqlType(Class<?> type) {
    if (type == short.class) {
      return SqlTypeName.SMALLINT;
    } else if (type == long.class) {
      return SqlTypeName.BIGINT;
    } else if (type == boolean.class) {
      return SqlTypeName.BOOLEAN;
    }
    return SqlTypeName.VARCHAR;
  }

  private List<String> columnNames() {
    return columns.stream().map(MetadataColumn::name).toList();
  }

  @Override public Schema.TableType getJdbcTableType() {
    return Schema.TableType.SYSTEM_TABLE;
  }

  /**
   * The rows, narrowed by the conditions {@code column = 'name'} among the filters (which
   * Calcite still applies), so that asking for one table's keys reads only its shards'.
   */
  @Override public Enumerable<@Nullable Object[]> scan(DataContext root,
      List<RexNode> filters) {
    try {
      return Linq4j.asEnumerable(rows.of(Objects.requireNonNull(root.getRootSchema(),
          "root schema"), SystemTableFilters.names(filters, columnNames())));
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
