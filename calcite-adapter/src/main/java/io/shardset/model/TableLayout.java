package io.shardset.model;

import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The columns of a logical table and where the table lives on each of its shards.
 *
 * @param columns the logical columns, in order
 * @param shards the physical table on each shard, in the table's shard order
 * @param primaryKey the logical names of the primary key's columns, in key order, when every
 *     shard declares the same one; else empty. Writes that find rows by key need it.
 */
public record TableLayout(List<ColumnInfo> columns, List<PhysicalTable> shards,
    List<String> primaryKey) {
  public TableLayout {
    columns = List.copyOf(columns);
    shards = List.copyOf(shards);
    primaryKey = List.copyOf(primaryKey);
  }

  /** A layout whose primary key is not known. */
  public TableLayout(List<ColumnInfo> columns, List<PhysicalTable> shards) {
    this(columns, shards, List.of());
  }

  /** The position of each primary key column, in key order; empty without primary key. */
  public List<Integer> primaryKeyColumns() {
    return primaryKey.stream().map(this::columnIndex).toList();
  }

  /**
   * The position of a logical column: the column with exactly this name, else the only one
   * whose name matches ignoring case; -1 if there is none (or several ignoring case).
   */
  public int columnIndex(String logicalName) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(logicalName)) {
        return i;
      }
    }
    List<Integer> matches = matchesIgnoringCase(logicalName);
    return matches.size() == 1 ? matches.get(0) : -1;
  }

  /** The positions of the columns whose names match ignoring case. */
  public List<Integer> matchesIgnoringCase(String logicalName) {
    String upper = logicalName.toUpperCase(Locale.ROOT);
    return IntStream.range(0, columns.size())
        .filter(i -> columns.get(i).name().toUpperCase(Locale.ROOT).equals(upper))
        .boxed().toList();
  }

  /** The logical column names, in order. */
  public List<String> columnNames() {
    return columns.stream().map(ColumnInfo::name).toList();
  }

  /**
   * The physical table on a shard.
   *
   * @throws IllegalArgumentException if the table does not live on that shard
   */
  public PhysicalTable shard(String name) {
    return shards.stream().filter(table -> table.shard().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no table on shard '" + name + "'"));
  }
}
