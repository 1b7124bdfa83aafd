package io.shardset.calcite.runtime;

import java.util.List;

/**
 * One table as a shard's SQL names it.
 *
 * @param qualifiedName the physical table name, qualified as the shard's SQL says it
 * @param columns the physical column names, in logical column order
 */
public record PhysicalTable(List<String> qualifiedName, List<String> columns) {
  public PhysicalTable {
    qualifiedName = List.copyOf(qualifiedName);
    columns = List.copyOf(columns);
  }

  /** The last part of the name, which SQL uses as the table's alias. */
  public String simpleName() {
    return qualifiedName.get(qualifiedName.size() - 1);
  }
}
