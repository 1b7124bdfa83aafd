package io.shardset.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a table's {@code references}: {@code [{"columns": ["ORDER_ID"], "table": "ORDERS"}]},
 * each with an optional {@code tableColumns} (the referenced table's primary key if absent)
 * and {@code name} (by default the two tables' names and {@code _FK}, such as
 * {@code SHIPMENTS_ORDERS_FK}). That the columns exist is checked when the shards' columns
 * are known.
 */
final class ReferencesParser {
  private static final List<String> KEYS = List.of("name", "columns", "table", "tableColumns");

  private ReferencesParser() {
  }

  /** The table's references; empty if it declares none. */
  static List<ReferenceSpec> parse(OperandNode table, String tableName) {
    final List<OperandNode> entries = table.entries(ReferenceSpec.FIELD);
    if (entries == null) {
      return List.of();
    }
    final List<ReferenceSpec> references = new ArrayList<>();
    final Set<String> names = new HashSet<>();
    for (OperandNode entry : entries) {
      entry.checkKeys(KEYS, Set.of());
      final String referenced = entry.requiredName("table");
      final List<String> columns = entry.names("columns");
      if (columns == null) {
        throw entry.error("columns", "a value is required");
      }
      final List<String> tableColumns = entry.names("tableColumns");
      if (tableColumns != null && tableColumns.size() != columns.size()) {
        throw entry.error("tableColumns", tableColumns.size() + " columns reference "
            + columns.size() + " (" + String.join(", ", columns) + ")");
      }
      final String name = entry.name("name", tableName + "_" + referenced + "_FK");
      if (!names.add(name.toUpperCase(Locale.ROOT))) {
        throw entry.error("name", "duplicate reference name '" + name + "'");
      }
      references.add(new ReferenceSpec(name, columns, referenced,
          tableColumns == null ? List.of() : tableColumns));
    }
    return references;
  }

  /** Fails on a reference to a table the model does not have. */
  static void checkTables(List<TableSpec> tables, List<OperandNode> entries) {
    final List<String> names = tables.stream().map(TableSpec::name).toList();
    for (int i = 0; i < tables.size(); i++) {
      final List<ReferenceSpec> references = tables.get(i).references();
      for (int j = 0; j < references.size(); j++) {
        if (!names.contains(references.get(j).table())) {
          final OperandNode table = entries.get(i).named(entries.get(i).location()::table);
          throw table.entries(ReferenceSpec.FIELD).get(j).error("table", "no table '"
              + references.get(j).table() + "' in the model; tables are "
              + String.join(", ", names));
        }
      }
    }
  }
}
