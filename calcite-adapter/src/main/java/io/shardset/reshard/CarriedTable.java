package io.shardset.reshard;

import io.shardset.topology.ShardedTable;


import java.util.List;
import java.util.Objects;

/**
 * A table whose rows a move carries, with the owners of its rows before the switch (the
 * sources) and after it (the targets).
 *
 * @param table the table as the schema during the move reads it
 * @param before owners under the chunk map naming the sources; null when not needed
 * @param after owners under the chunk map naming the targets; null when not needed
 */
record CarriedTable(ShardedTable table, RowOwners before, RowOwners after) {
  CarriedTable {
    Objects.requireNonNull(table, "table");
  }

  /** The table's name, for messages. */
  String name() {
    return table.qualifiedName();
  }

  /** The table's physical tables on a shard, subpartitions in model order. */
  List<TablePart> parts(String shard) {
    int index = table.shardIndex(shard);
    if (index < 0) {
      throw new IllegalArgumentException("table " + name() + " has no shard '" + shard + "'");
    }
    return table.site(index).tables().stream().map(site -> new TablePart(shard, site))
        .toList();
  }

  /** The quoted routing key columns of a physical table. */
  List<String> keyColumns(TablePart part) {
    return part.columns(table.keyColumns());
  }
}
