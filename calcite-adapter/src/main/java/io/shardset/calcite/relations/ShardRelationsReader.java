package io.shardset.calcite.relations;

import io.shardset.calcite.ForeignKeyDef;
import io.shardset.model.PhysicalTable;
import io.shardset.model.TableLayout;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Reads the indexes and foreign keys of one table's physical table on one shard, and names
 * them as the logical tables do: logical column names, and the logical table a key references.
 * What cannot be named so (an index on an expression, a key referencing a table the model
 * does not have) is left out, as the shard's view of it says nothing of the logical table.
 */
final class ShardRelationsReader {
  private final DatabaseMetaData metaData;
  private final PhysicalTable physical;
  private final TableLayout layout;

  /**
   * A reader of one physical table.
   *
   * @param physical the table on the shard {@code metaData} describes
   * @param layout the logical table's columns, in the physical table's column order
   */
  ShardRelationsReader(DatabaseMetaData metaData, PhysicalTable physical, TableLayout layout) {
    this.metaData = Objects.requireNonNull(metaData, "metaData");
    this.physical = Objects.requireNonNull(physical, "physical");
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  /** One index's columns while they are read, by position in the index. */
  private static final class IndexColumns {
    final boolean unique;
    final short type;
    final @Nullable String filter;
    final TreeMap<Short, String> columns = new TreeMap<>();
    final TreeMap<Short, @Nullable String> orders = new TreeMap<>();
    boolean unnamed;

    IndexColumns(boolean unique, short type, @Nullable String filter) {
      this.unique = unique;
      this.type = type;
      this.filter = filter;
    }
  }

  /** The table's indexes, in the order the shard lists them; statistics rows are not indexes. */
  List<IndexDef> indexes() throws SQLException {
    final Map<String, IndexColumns> indexes = new LinkedHashMap<>();
    try (ResultSet rs = metaData.getIndexInfo(physical.catalog(), physical.schema(),
        physical.table(), false, true)) {
      while (rs.next()) {
        final short type = rs.getShort("TYPE");
        final String name = rs.getString("INDEX_NAME");
        if (type == DatabaseMetaData.tableIndexStatistic || name == null) {
          continue;
        }
        IndexColumns index = indexes.get(name);
        if (index == null) {
          index = new IndexColumns(!rs.getBoolean("NON_UNIQUE"), type,
              rs.getString("FILTER_CONDITION"));
          indexes.put(name, index);
        }
        final short position = rs.getShort("ORDINAL_POSITION");
        final String column = logical(layout, physical, rs.getString("COLUMN_NAME"));
        if (column == null) {
          index.unnamed = true;
        } else {
          index.columns.put(position, column);
          index.orders.put(position, rs.getString("ASC_OR_DESC"));
        }
      }
    }
    final List<IndexDef> result = new ArrayList<>();
    indexes.forEach((name, index) -> {
      if (!index.unnamed) {
        result.add(new IndexDef(name, index.unique, index.type,
            new ArrayList<>(index.columns.values()), new ArrayList<>(index.orders.values()),
            index.filter));
      }
    });
    return result;
  }

  /** One foreign key's columns while they are read, by position in the key. */
  private record KeyStart(@Nullable String name, String pkTable, short updateRule,
      short deleteRule, short deferrability) {
  }

  /**
   * The table's foreign keys whose referenced table is a logical table.
   *
   * @param logicalTable the logical table whose physical table on this shard is the given
   *     one, with that logical table's layout; null for a table the model does not have
   */
  List<ForeignKeyDef> foreignKeys(Function<PhysicalName, @Nullable Referenced> logicalTable)
      throws SQLException {
    final Map<KeyStart, TreeMap<Short, String[]>> keys = new LinkedHashMap<>();
    try (ResultSet rs = metaData.getImportedKeys(physical.catalog(), physical.schema(),
        physical.table())) {
      while (rs.next()) {
        final Referenced referenced = logicalTable.apply(new PhysicalName(
            rs.getString("PKTABLE_CAT"), rs.getString("PKTABLE_SCHEM"),
            rs.getString("PKTABLE_NAME")));
        if (referenced == null) {
          continue;
        }
        final KeyStart key = new KeyStart(rs.getString("FK_NAME"), referenced.name(),
            rs.getShort("UPDATE_RULE"), rs.getShort("DELETE_RULE"),
            rs.getShort("DEFERRABILITY"));
        keys.computeIfAbsent(key, k -> new TreeMap<>()).put(rs.getShort("KEY_SEQ"),
            new String[] {
                logical(referenced.layout(), referenced.physical(),
                    rs.getString("PKCOLUMN_NAME")),
                logical(layout, physical, rs.getString("FKCOLUMN_NAME"))});
      }
    }
    final List<ForeignKeyDef> result = new ArrayList<>();
    keys.forEach((key, columns) -> {
      final List<String> pk = new ArrayList<>();
      final List<String> fk = new ArrayList<>();
      for (String[] pair : columns.values()) {
        if (pair[0] == null || pair[1] == null) {
          return;
        }
        pk.add(pair[0]);
        fk.add(pair[1]);
      }
      result.add(new ForeignKeyDef(key.name(), key.pkTable(), pk, fk, key.updateRule(),
          key.deleteRule(), key.deferrability()));
    });
    return result;
  }

  /** A table as a shard's metadata names it. */
  record PhysicalName(@Nullable String catalog, @Nullable String schema, String table) {
    /**
     * Whether this names that physical table. A table without a catalog is one whose catalog
     * is not known (a shard taken to hold its tables as another shard does, under
     * {@code "checkShards": "onFirstUse"}, where the model names no {@code jdbcCatalog}): any
     * catalog matches it.
     */
    boolean names(PhysicalTable table) {
      return this.table.equals(table.table()) && Objects.equals(schema, table.schema())
          && (table.catalog() == null || Objects.equals(catalog, table.catalog()));
    }
  }

  /** A logical table a foreign key references, and its physical table on the shard. */
  record Referenced(String name, TableLayout layout, PhysicalTable physical) {
  }

  /** A physical column's logical name; null for a name that is no column (an expression). */
  private static @Nullable String logical(TableLayout layout, PhysicalTable physical,
      @Nullable String column) {
    final int index = column == null ? -1 : physical.columns().indexOf(column);
    return index < 0 ? null : layout.columnNames().get(index);
  }
}
