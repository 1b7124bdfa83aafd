package io.shardset.model;

import java.util.List;
import java.util.Objects;

/**
 * A table's physical table on one shard and its columns, in order, with logical names, as the
 * shard's metadata describes them.
 *
 * @param primaryKey the logical names of the primary key's columns, in key order; empty when
 *     the table has none (or it was not read)
 */
public record ShardColumns(PhysicalTable table, List<ColumnInfo> columns,
    List<String> primaryKey) {
  public ShardColumns {
    Objects.requireNonNull(table, "table");
    columns = List.copyOf(columns);
    primaryKey = List.copyOf(primaryKey);
  }

  /** A shard's table and columns whose primary key is not known. */
  public ShardColumns(PhysicalTable table, List<ColumnInfo> columns) {
    this(table, columns, List.of());
  }
}
