package io.shardset.write;

import io.shardset.session.PendingBatch;
import io.shardset.topology.ShardedTable;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The INSERT rows of a JDBC batch that wait to be sent, per logical table: Calcite executes
 * a batch one parameter set at a time, and sending each set's row on its own would cost a
 * round trip per row. The rows go to their shards in JDBC batches when the batch ends, or
 * earlier when a statement of another kind needs them in place. Not thread-safe: a
 * connection's batch runs on one thread.
 */
public final class BatchedInserts implements PendingBatch {
  private final Map<ShardedTable, RowInserter> inserters = new IdentityHashMap<>();

  /** The inserter the batch's rows into {@code table} use; null before the first. */
  public @Nullable RowInserter inserter(ShardedTable table) {
    return inserters.get(table);
  }

  public void add(ShardedTable table, RowInserter inserter) {
    inserters.put(table, inserter);
  }

  /**
   * Sends every waiting row.
   *
   * @throws SQLException naming table and shard, if a shard refused rows
   */
  @Override public void flush() throws SQLException {
    for (RowInserter inserter : inserters.values()) {
      inserter.finish();
    }
  }

  /** Closes the inserters' statements; rows not flushed are dropped. */
  @Override public void close() {
    for (RowInserter inserter : inserters.values()) {
      inserter.close();
    }
    inserters.clear();
  }
}
