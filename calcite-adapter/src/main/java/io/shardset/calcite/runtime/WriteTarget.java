package io.shardset.calcite.runtime;

import io.shardset.model.ColumnInfo;
import io.shardset.topology.ShardedTable;
import io.shardset.transaction.TransactionCoordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a write's generated code hands the runtime: the table, the coordinator of its shards'
 * transactions, the operation, and the JDBC type of each column (how its values convert).
 *
 * @param table the logical table written
 * @param coordinator begins the transactions on the table's shards
 * @param operation what the statement does to the table
 * @param updated the columns an UPDATE sets, in the order its input row gives their new
 *     values after the table's columns; empty for other operations
 * @param defaulted the columns an INSERT leaves out of the shards' statements, so that the
 *     shards fill them (their input values are NULL)
 * @param sequenced the columns that take a global sequence's values, which JDBC's
 *     {@code RETURN_GENERATED_KEYS} lists
 * @param exact the TIMESTAMP values of the input rows finer than the milliseconds Calcite's
 *     rows carry
 */
public record WriteTarget(ShardedTable table, TransactionCoordinator coordinator,
    ShardWrites.Operation operation, List<Integer> updated, List<Integer> defaulted,
    List<Integer> sequenced, ExactTimestamps exact) {
  public WriteTarget {
    Objects.requireNonNull(exact, "exact");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(coordinator, "coordinator");
    Objects.requireNonNull(operation, "operation");
    updated = List.copyOf(updated);
    defaulted = List.copyOf(defaulted);
    sequenced = List.copyOf(sequenced);
  }

  /** The target of a write that sets no columns (INSERT, DELETE). */
  public static WriteTarget of(ShardedTable table, TransactionCoordinator coordinator,
      ShardWrites.Operation operation) {
    return new WriteTarget(table, coordinator, operation, List.of(), List.of(), List.of(),
        ExactTimestamps.NONE);
  }

  /** The target of an UPDATE of these columns. */
  public static WriteTarget of(ShardedTable table, TransactionCoordinator coordinator,
      ShardWrites.Operation operation, List<Integer> updated) {
    return new WriteTarget(table, coordinator, operation, updated, List.of(), List.of(),
        ExactTimestamps.NONE);
  }

  /** The columns that decide where a row lives: the routing key (a composite table's
   * partition column and shard key, a lookup table's key) and the subpartition column. */
  public List<Integer> routingColumns() {
    final List<Integer> columns = new ArrayList<>(table.keyColumns());
    if (table.subpartitioning() != null) {
      columns.add(table.subpartitioning().column());
    }
    return columns;
  }

  /** The JDBC type ({@link java.sql.Types}) of each of the table's columns. */
  int[] jdbcTypes() {
    return table.layout().columns().stream().mapToInt(ColumnInfo::jdbcType).toArray();
  }
}
