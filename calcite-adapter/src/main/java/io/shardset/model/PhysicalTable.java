package io.shardset.model;

import java.util.List;
import java.util.Objects;

/**
 * A logical table's physical table on one shard, with its names exactly as the shard stores
 * them.
 *
 * @param shard the shard name
 * @param catalog the table's catalog as the shard reports it, or null
 * @param schema the table's schema as the shard reports it, or null
 * @param table the table's exact physical name
 * @param columns the physical column names, in logical column order
 */
public record PhysicalTable(String shard, String catalog, String schema, String table,
    List<String> columns) {
  public PhysicalTable {
    Objects.requireNonNull(shard, "shard");
    Objects.requireNonNull(table, "table");
    columns = List.copyOf(columns);
  }
}
