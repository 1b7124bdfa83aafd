package io.shardset.model;

import io.shardset.routing.KeyType;
import io.shardset.routing.RangeRouter;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How each shard of a table splits its rows into subpartition tables: by ranges of one column,
 * routed by a {@link RangeRouter} whose "shards" are the subpartitions in model order.
 *
 * @param column the subpartition column's position in the table
 * @param router routes a value of the column to its subpartition
 * @param names the subpartitions' names, in model order
 */
public record Subpartitioning(int column, RangeRouter router, List<String> names) {
  public Subpartitioning {
    Objects.requireNonNull(router, "router");
    names = List.copyOf(names);
    if (router.shardCount() != names.size()) {
      throw new IllegalArgumentException(router.shardCount() + " targets for " + names.size()
          + " subpartitions");
    }
  }

  /**
   * The table's subpartitioning, after checking its column and ranges against the table's
   * columns; null if the table has no subpartitions.
   *
   * @throws ModelException naming the schema, table and field ({@code subpartitions.column},
   *     {@code subpartitions.ranges}) at fault
   */
  public static Subpartitioning create(ShardSetModel model, TableSpec table,
      TableLayout layout) {
    final SubpartitionSpec spec = table.subpartitions();
    if (spec == null) {
      return null;
    }
    final Location location = Location.of(model.schema()).table(table.name())
        .object(SubpartitionsParser.FIELD);
    final int index = layout.columnIndex(spec.column());
    if (index < 0) {
      throw location.error("column", "column '" + spec.column() + "' does not exist;"
          + " columns are " + String.join(", ", layout.columnNames()));
    }
    final ColumnInfo column = layout.columns().get(index);
    final KeyType type = KeyType.forJdbcType(column.jdbcType()).orElseThrow(() ->
        location.error("column", "column '" + column.name() + "' has type "
            + column.jdbcTypeName() + ", which cannot subpartition a table; supported:"
            + " integer and decimal types, CHAR, VARCHAR, DATE, TIMESTAMP, BOOLEAN"));
    // The router's "shards" are the subpartitions, in model order.
    final RangeRouter router = new RangeRouterBuilder(location, "ranges",
        spec.ranges().stream()
            .map(range -> new RangeSpec(range.name(), range.from(), range.to())).toList(),
        spec.names(), new KeyColumn(column, type)).build();
    return new Subpartitioning(index, router, spec.names());
  }

  /** The number of subpartitions. */
  public int count() {
    return names.size();
  }

  /** The column's routing type. */
  public KeyType type() {
    return router.keyTypes().get(0);
  }

  /**
   * The subpartition of a row, given as the table's columns in order; empty when no range
   * holds its value (NULL included).
   *
   * @throws IllegalArgumentException if the value is not of the column's type
   */
  public OptionalInt subpartitionOf(Object[] row) {
    return router.shardOf(Collections.singletonList(row[column]));
  }
}
