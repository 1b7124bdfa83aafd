package io.shardset.calcite.runtime;

import io.shardset.model.ColumnInfo;
import io.shardset.topology.ShardedTable;
import io.shardset.transaction.TransactionCoordinator;
import io.shardset.write.MergeLayout;
import io.shardset.write.UpsertSpec;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a MERGE's generated code hands the runtime: the table, the coordinator of its shards'
 * transactions, and how the statement writes: a native upsert by primary key, or row by row
 * from the source joined with the table. Exactly one of {@code upsert} and {@code rowWise} is
 * set.
 *
 * @param table the logical table merged into
 * @param coordinator begins the transactions on the table's shards
 * @param upsert the native upsert, or null
 * @param rowWise the layout of the joined rows of a row-wise MERGE, or null
 */
public record MergeTarget(ShardedTable table, TransactionCoordinator coordinator,
    @Nullable UpsertSpec upsert, @Nullable MergeLayout rowWise) {
  public MergeTarget {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(coordinator, "coordinator");
    if ((upsert == null) == (rowWise == null)) {
      throw new IllegalArgumentException("a MERGE is either a native upsert or row-wise");
    }
  }

  /** The JDBC type of each value of an input row, as the row's layout says. */
  int[] jdbcTypes() {
    final List<ColumnInfo> columns = table.layout().columns();
    final List<Integer> types = new ArrayList<>();
    final List<Integer> updated;
    if (upsert != null) {
      columns.forEach(c -> types.add(c.jdbcType()));
      updated = upsert.updateColumns();
    } else {
      final int copies = rowWise.inserts() ? 2 : 1;
      for (int i = 0; i < copies; i++) {
        columns.forEach(c -> types.add(c.jdbcType()));
      }
      updated = rowWise.updateColumns();
    }
    updated.forEach(c -> types.add(columns.get(c).jdbcType()));
    return types.stream().mapToInt(Integer::intValue).toArray();
  }
}
