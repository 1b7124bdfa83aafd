package io.shardset.model;

import java.util.List;
import java.util.Objects;

/**
 * A table's physical table on one shard and its columns, in order, with logical names, as the
 * shard's metadata describes them.
 */
public record ShardColumns(PhysicalTable table, List<ColumnInfo> columns) {
  public ShardColumns {
    Objects.requireNonNull(table, "table");
    columns = List.copyOf(columns);
  }
}
