package io.shardset.calcite.runtime;

import io.shardset.model.ColumnInfo;
import io.shardset.topology.ShardedTable;
import io.shardset.transaction.TransactionCoordinator;

import java.util.Objects;

/**
 * What a write's generated code hands the runtime: the table, the coordinator of its shards'
 * transactions, the operation, and the JDBC type of each column (how its values convert).
 *
 * @param table the logical table written
 * @param coordinator begins the transactions on the table's shards
 * @param operation what the statement does to the table
 */
public record WriteTarget(ShardedTable table, TransactionCoordinator coordinator,
    ShardWrites.Operation operation) {
  public WriteTarget {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(coordinator, "coordinator");
    Objects.requireNonNull(operation, "operation");
  }

  /** The target of a write. */
  public static WriteTarget of(ShardedTable table, TransactionCoordinator coordinator,
      ShardWrites.Operation operation) {
    return new WriteTarget(table, coordinator, operation);
  }

  /** The JDBC type ({@link java.sql.Types}) of each of the table's columns. */
  int[] jdbcTypes() {
    return table.layout().columns().stream().mapToInt(ColumnInfo::jdbcType).toArray();
  }
}
