package io.shardset.calcite;

import io.shardset.model.ModelException;
import io.shardset.model.ReferenceSpec;
import io.shardset.model.TableLayout;

import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The relationships a model declares ({@code references}, see {@link ReferenceSpec}) as the
 * foreign keys BI tools read: in the layouts' column names, to the referenced columns or the
 * referenced table's primary key, with no action on update or delete (nothing enforces them).
 */
public final class ModelReferences {
  private ModelReferences() {
  }

  /**
   * Checks every table's references against the tables' columns.
   *
   * @param tables the schema's tables, by name
   * @throws ModelException naming the table and {@code references} when a column does not
   *     exist, or a reference without {@code tableColumns} names a table without primary key
   */
  public static void check(String schema, Map<String, ShardTable> tables) {
    tables.values().forEach(table -> foreignKeys(schema, table, tables));
  }

  /** The foreign keys a table's references declare. */
  public static List<ForeignKeyDef> foreignKeys(String schema, ShardTable table,
      Map<String, ShardTable> tables) {
    final List<ForeignKeyDef> keys = new ArrayList<>();
    for (ReferenceSpec reference : table.spec().references()) {
      final ShardTable referenced = tables.get(reference.table());
      final String what = "reference '" + reference.name() + "': ";
      if (referenced == null) {
        throw new ModelException(schema, table.spec().name(), ReferenceSpec.FIELD, what
            + "no table '" + reference.table() + "'");
      }
      final List<String> pk = reference.tableColumns().isEmpty()
          ? referenced.layout().primaryKey() : reference.tableColumns();
      if (pk.size() != reference.columns().size()) {
        throw new ModelException(schema, table.spec().name(), ReferenceSpec.FIELD, what
            + (pk.isEmpty() ? "table '" + reference.table() + "' has no primary key (its"
                + " shards declare none alike); name its columns in tableColumns"
                : reference.columns().size() + " columns reference its primary key of "
                + pk.size() + " (" + String.join(", ", pk) + ")"));
      }
      keys.add(new ForeignKeyDef(reference.name(), reference.table(),
          columns(schema, table, what, reference.table(), referenced.layout(), pk),
          columns(schema, table, what, table.spec().name(), table.layout(),
              reference.columns()),
          (short) DatabaseMetaData.importedKeyNoAction,
          (short) DatabaseMetaData.importedKeyNoAction,
          (short) DatabaseMetaData.importedKeyNotDeferrable));
    }
    return keys;
  }

  /** The layout's names of the columns; fails on a column it does not have. */
  private static List<String> columns(String schema, ShardTable table, String what,
      String owner, TableLayout layout, List<String> names) {
    final List<String> columns = new ArrayList<>();
    for (String name : names) {
      final int index = layout.columnIndex(name);
      if (index < 0) {
        throw new ModelException(schema, table.spec().name(), ReferenceSpec.FIELD, what
            + "table '" + owner + "' has no column '" + name + "'; its columns are "
            + String.join(", ", layout.columnNames()));
      }
      columns.add(layout.columnNames().get(index));
    }
    return columns;
  }
}
