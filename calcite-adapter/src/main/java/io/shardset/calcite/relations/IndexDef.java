package io.shardset.calcite.relations;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An index of a logical table, in logical column names, as a shard's
 * {@link java.sql.DatabaseMetaData#getIndexInfo} describes it.
 *
 * @param name the index's name on the shard
 * @param unique whether the index holds each value once
 * @param type the JDBC index type ({@code tableIndexClustered}, {@code tableIndexHashed},
 *     {@code tableIndexOther})
 * @param columns the logical column names, in index order
 * @param ascOrDesc each column's sort order, {@code "A"}, {@code "D"} or null
 * @param filter the index's filter condition, or null
 */
public record IndexDef(String name, boolean unique, short type, List<String> columns,
    List<@Nullable String> ascOrDesc, @Nullable String filter) {
  public IndexDef {
    Objects.requireNonNull(name, "name");
    columns = List.copyOf(columns);
    // List.copyOf refuses nulls, and a shard may not know an order.
    ascOrDesc = Collections.unmodifiableList(new ArrayList<>(ascOrDesc));
    if (columns.size() != ascOrDesc.size()) {
      throw new IllegalArgumentException("index " + name + " has " + columns.size()
          + " columns and " + ascOrDesc.size() + " orders");
    }
  }

  /** The same index under another name. */
  IndexDef withName(String otherName) {
    return new IndexDef(otherName, unique, type, columns, ascOrDesc, filter);
  }

  /** The same index, unique or not. */
  IndexDef withUnique(boolean isUnique) {
    return new IndexDef(name, isUnique, type, columns, ascOrDesc, filter);
  }
}
