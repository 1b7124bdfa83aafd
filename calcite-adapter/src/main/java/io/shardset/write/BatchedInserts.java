package io.shardset.write;

import io.shardset.session.GeneratedKeys;
import io.shardset.session.PendingBatch;
import io.shardset.topology.ShardedTable;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The INSERT rows of a JDBC batch that wait to be sent, per logical table: Calcite executes
 * a batch one parameter set at a time, and sending each set's row on its own would cost a
 * round trip per row. The rows go to their shards in JDBC batches when the batch ends, or
 * earlier when a statement of another kind needs them in place. Not thread-safe: a
 * connection's batch runs on one thread.
 */
public final class BatchedInserts implements PendingBatch {
  /** The inserters, by table and the columns its INSERTs leave to the shards. */
  private final Map<Key, RowInserter> inserters = new LinkedHashMap<>();

  /** An inserter's table (by identity) and the columns it leaves out. */
  private record Key(Object table, List<Integer> defaulted) {
    @Override public boolean equals(Object o) {
      return o instanceof Key k && k.table == table && k.defaulted.equals(defaulted);
    }

    @Override public int hashCode() {
      return System.identityHashCode(table) * 31 + defaulted.hashCode();
    }
  }

  /**
   * The inserter the batch's rows into {@code table} that leave {@code defaulted} out use;
   * null before the first.
   */
  public @Nullable RowInserter inserter(ShardedTable table, List<Integer> defaulted) {
    return inserters.get(new Key(table, defaulted));
  }

  public void add(ShardedTable table, List<Integer> defaulted, RowInserter inserter) {
    inserters.put(new Key(table, List.copyOf(defaulted)), inserter);
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

  /** The keys of the rows sent, of the inserters that were asked for keys. */
  @Override public List<GeneratedKeys> keys() {
    final List<GeneratedKeys> keys = new ArrayList<>();
    for (RowInserter inserter : inserters.values()) {
      final GeneratedKeys generated = inserter.generatedKeys();
      if (!generated.columns().isEmpty()) {
        keys.add(generated);
      }
    }
    return keys;
  }

  /** Closes the inserters' statements; rows not flushed are dropped. */
  @Override public void close() {
    for (RowInserter inserter : inserters.values()) {
      inserter.close();
    }
    inserters.clear();
  }
}
