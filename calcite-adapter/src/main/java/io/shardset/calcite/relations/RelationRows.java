package io.shardset.calcite.relations;

import io.shardset.calcite.ForeignKeyDef;
import io.shardset.calcite.ShardSchema;

import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.lookup.LikePattern;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The rows of {@link java.sql.DatabaseMetaData#getPrimaryKeys}, {@code getImportedKeys},
 * {@code getExportedKeys}, {@code getCrossReference} and {@code getIndexInfo} for the
 * ShardSet schemas of a connection, in the columns JDBC names ({@link #PRIMARY_KEY_COLUMNS},
 * {@link #FOREIGN_KEY_COLUMNS}, {@link #INDEX_COLUMNS}). Names given to narrow them are names,
 * not patterns; null matches every one. ShardSet has no catalogs: TABLE_CAT is null.
 *
 * <p>A primary key is named after its table, {@code T_PK} for {@code T} (the shards' own
 * constraint names need not agree); a foreign key and an index keep the name the shards give
 * them. CARDINALITY and PAGES are 0: they are statistics of each shard, not of the table.
 */
public final class RelationRows {
  /** The columns of {@code getPrimaryKeys}. */
  public static final List<MetadataColumn> PRIMARY_KEY_COLUMNS = List.of(
      text("TABLE_CAT"), text("TABLE_SCHEM"), text("TABLE_NAME"), text("COLUMN_NAME"),
      new MetadataColumn("KEY_SEQ", short.class), text("PK_NAME"));

  /** The columns of {@code getImportedKeys}, {@code getExportedKeys} and
   * {@code getCrossReference}. */
  public static final List<MetadataColumn> FOREIGN_KEY_COLUMNS = List.of(
      text("PKTABLE_CAT"), text("PKTABLE_SCHEM"), text("PKTABLE_NAME"), text("PKCOLUMN_NAME"),
      text("FKTABLE_CAT"), text("FKTABLE_SCHEM"), text("FKTABLE_NAME"), text("FKCOLUMN_NAME"),
      new MetadataColumn("KEY_SEQ", short.class), new MetadataColumn("UPDATE_RULE", short.class),
      new MetadataColumn("DELETE_RULE", short.class), text("FK_NAME"), text("PK_NAME"),
      new MetadataColumn("DEFERRABILITY", short.class));

  /** The columns of {@code getIndexInfo}. */
  public static final List<MetadataColumn> INDEX_COLUMNS = List.of(
      text("TABLE_CAT"), text("TABLE_SCHEM"), text("TABLE_NAME"),
      new MetadataColumn("NON_UNIQUE", boolean.class), text("INDEX_QUALIFIER"),
      text("INDEX_NAME"), new MetadataColumn("TYPE", short.class),
      new MetadataColumn("ORDINAL_POSITION", short.class), text("COLUMN_NAME"),
      text("ASC_OR_DESC"), new MetadataColumn("CARDINALITY", long.class),
      new MetadataColumn("PAGES", long.class), text("FILTER_CONDITION"));

  /** JDBC's order of primary keys by table (and then key order, which says more than the
   * column name JDBC orders them by). */
  public static final List<String> PRIMARY_KEY_ORDER =
      List.of("TABLE_SCHEM", "TABLE_NAME", "KEY_SEQ");

  /** JDBC's order of imported keys: by the referenced table; a key's columns together. */
  public static final List<String> IMPORTED_KEY_ORDER = List.of("PKTABLE_SCHEM",
      "PKTABLE_NAME", "FKTABLE_SCHEM", "FKTABLE_NAME", "FK_NAME", "KEY_SEQ");

  /** JDBC's order of exported keys and cross references: by the referencing table. */
  public static final List<String> EXPORTED_KEY_ORDER = List.of("FKTABLE_SCHEM",
      "FKTABLE_NAME", "PKTABLE_SCHEM", "PKTABLE_NAME", "FK_NAME", "KEY_SEQ");

  /** JDBC's order of indexes, after their table. */
  public static final List<String> INDEX_ORDER = List.of("TABLE_SCHEM", "TABLE_NAME",
      "NON_UNIQUE", "TYPE", "INDEX_NAME", "ORDINAL_POSITION");

  private RelationRows() {
  }

  private static MetadataColumn text(String name) {
    return new MetadataColumn(name, String.class);
  }

  /** The primary keys of the tables named so, in {@link #PRIMARY_KEY_ORDER}. */
  public static List<Object[]> primaryKeys(SchemaPlus root, @Nullable String schema,
      @Nullable String table) {
    final List<Object[]> rows = new ArrayList<>();
    shardSchemas(root, schema).forEach((schemaName, shards) -> {
      for (String tableName : tables(shards, table)) {
        final List<String> key = shards.table(tableName).layout().primaryKey();
        for (int i = 0; i < key.size(); i++) {
          rows.add(new Object[] {null, schemaName, tableName, key.get(i), (short) (i + 1),
              primaryKeyName(tableName)});
        }
      }
    });
    return rows;
  }

  /**
   * The foreign keys from the tables named {@code fkSchema.fkTable} to those named
   * {@code pkSchema.pkTable}, in {@code order} (a list of {@link #FOREIGN_KEY_COLUMNS}).
   *
   * @throws SQLException if a shard's metadata cannot be read
   */
  public static List<Object[]> foreignKeys(SchemaPlus root, @Nullable String pkSchema,
      @Nullable String pkTable, @Nullable String fkSchema, @Nullable String fkTable,
      List<String> order) throws SQLException {
    final List<Object[]> rows = new ArrayList<>();
    for (Map.Entry<String, ShardSchema> entry : shardSchemas(root, fkSchema).entrySet()) {
      final String schemaName = entry.getKey();
      if (pkSchema != null && !pkSchema.equals(schemaName)) {
        continue;
      }
      final ShardSchema shards = entry.getValue();
      for (String tableName : tables(shards, fkTable)) {
        for (ForeignKeyDef key
            : TableRelations.foreignKeys(shards, shards.table(tableName))) {
          if (pkTable != null && !pkTable.equals(key.pkTable())) {
            continue;
          }
          final String pkName = shards.table(key.pkTable()).layout().primaryKey()
              .equals(key.pkColumns()) ? primaryKeyName(key.pkTable()) : null;
          for (int i = 0; i < key.fkColumns().size(); i++) {
            rows.add(new Object[] {null, schemaName, key.pkTable(), key.pkColumns().get(i),
                null, schemaName, tableName, key.fkColumns().get(i), (short) (i + 1),
                key.updateRule(), key.deleteRule(), key.name(), pkName,
                key.deferrability()});
          }
        }
      }
    }
    rows.sort(comparator(FOREIGN_KEY_COLUMNS, order));
    return rows;
  }

  /**
   * The indexes of the tables named so, only the unique ones if {@code uniqueOnly}, in
   * {@link #INDEX_ORDER}.
   *
   * @throws SQLException if a shard's metadata cannot be read
   */
  public static List<Object[]> indexes(SchemaPlus root, @Nullable String schema,
      @Nullable String table, boolean uniqueOnly) throws SQLException {
    final List<Object[]> rows = new ArrayList<>();
    for (Map.Entry<String, ShardSchema> entry : shardSchemas(root, schema).entrySet()) {
      for (String tableName : tables(entry.getValue(), table)) {
        for (IndexDef index : TableRelations.indexes(entry.getValue().table(tableName))) {
          if (uniqueOnly && !index.unique()) {
            continue;
          }
          for (int i = 0; i < index.columns().size(); i++) {
            rows.add(new Object[] {null, entry.getKey(), tableName, !index.unique(), null,
                index.name(), index.type(), (short) (i + 1), index.columns().get(i),
                index.ascOrDesc().get(i), 0L, 0L, index.filter()});
          }
        }
      }
    }
    rows.sort(comparator(INDEX_COLUMNS, INDEX_ORDER));
    return rows;
  }

  /** The name getPrimaryKeys gives a table's primary key. */
  private static String primaryKeyName(String table) {
    return table + "_PK";
  }

  /** Rows compared by the named columns in turn, NULLs last (as Calcite sorts them). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Comparator<Object[]> comparator(List<MetadataColumn> columns,
      List<String> order) {
    final List<String> names = columns.stream().map(MetadataColumn::name).toList();
    Comparator<Object[]> comparator = (a, b) -> 0;
    for (String name : order) {
      final int i = names.indexOf(name);
      if (i < 0) {
        throw new IllegalArgumentException("no column " + name + " in " + names);
      }
      comparator = comparator.thenComparing(row -> (Comparable) row[i],
          Comparator.nullsLast(Comparator.naturalOrder()));
    }
    return comparator;
  }

  /** The ShardSet schemas of the connection named so, by name in order. */
  private static Map<String, ShardSchema> shardSchemas(SchemaPlus root,
      @Nullable String schema) {
    final Map<String, ShardSchema> schemas = new TreeMap<>();
    for (String name : root.subSchemas().getNames(LikePattern.any())) {
      final SchemaPlus sub = root.subSchemas().get(name);
      if (sub == null || schema != null && !schema.equals(name)) {
        continue;
      }
      try {
        final ShardSchema shards = sub.unwrap(ShardSchema.class);
        if (shards != null) {
          schemas.put(name, shards);
        }
      } catch (ClassCastException e) {
        // Not a ShardSet schema (Calcite's metadata schema, say): no keys known.
      }
    }
    return schemas;
  }

  /** The schema's tables named so, in order. */
  private static List<String> tables(ShardSchema schema, @Nullable String table) {
    return schema.tableNames().stream().filter(t -> table == null || Objects.equals(t, table))
        .toList();
  }
}
