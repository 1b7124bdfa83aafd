package io.shardset.calcite.runtime;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
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

  /**
   * The subpartition tables a choice reads: all when {@code chosen} is null, the first when it
   * is empty (the shards then read one table, whose rows the filters reject).
   */
  public static List<PhysicalTable> chosen(List<PhysicalTable> all, @Nullable BitSet chosen) {
    final List<PhysicalTable> result = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (chosen == null || chosen.get(i) || chosen.isEmpty() && i == 0) {
        result.add(all.get(i));
      }
    }
    return result;
  }
}
