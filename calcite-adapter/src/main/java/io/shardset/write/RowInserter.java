package io.shardset.write;

import io.shardset.topology.RowSite;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * INSERT into a logical table: each row goes to the physical table its key (and
 * subpartition column) places it in, or to every shard for a duplicated table, in JDBC
 * batches per physical table, in the write's transaction. Nothing is committed here: the
 * transaction's owner commits or rolls back. Not thread-safe.
 */
public final class RowInserter implements AutoCloseable {
  private final TableWrite write;
  private final int batchSize;
  private final int columns;
  /** One batch per physical table, by shard * tablesPerShard + table; null until used. */
  private final List<PhysicalBatch> batches = new ArrayList<>();
  private long rows;

  private RowInserter(TableWrite write, int batchSize) {
    this.write = write;
    this.batchSize = batchSize;
    this.columns = write.table().layout().columns().size();
    for (int i = 0; i < write.table().shardCount() * write.tablesPerShard(); i++) {
      batches.add(null);
    }
  }

  /** An inserter that sends a physical table's rows every {@code batchSize} rows. */
  public static RowInserter open(TableWrite write, int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
    return new RowInserter(write, batchSize);
  }

  /**
   * Inserts a row: its JDBC values, in the table's column order. The array is kept until
   * sent; the caller must not change it.
   *
   * @throws SQLException if the row cannot be placed (see {@link TableWrite#place}) or a
   *     shard refused a batch
   */
  public void insert(Object[] row) throws SQLException {
    if (row.length != columns) {
      throw new SQLException("table " + write.table().qualifiedName() + " has " + columns
          + " columns; the row has " + row.length, "21S01");
    }
    for (RowSite site : write.place(row)) {
      final PhysicalBatch batch = batch(site);
      batch.add(row);
      if (batch.waiting() >= batchSize) {
        batch.flush();
      }
    }
    rows++;
  }

  /**
   * Sends every waiting row.
   *
   * @return the number of rows inserted into the logical table (a duplicated table's row
   *     counts once, though every shard holds it)
   */
  public long finish() throws SQLException {
    final PhysicalBatch only = onlyRow();
    if (only != null && only.flushAlone()) {
      return rows;
    }
    for (PhysicalBatch batch : batches) {
      if (batch != null) {
        batch.flush();
      }
    }
    return rows;
  }

  /** The batch holding the inserter's one row, unsent, when that is all it has; else null. */
  private @Nullable PhysicalBatch onlyRow() {
    if (rows != 1) {
      return null;
    }
    PhysicalBatch found = null;
    for (PhysicalBatch batch : batches) {
      if (batch != null) {
        if (found != null || batch.waiting() != 1) {
          return null;
        }
        found = batch;
      }
    }
    return found;
  }

  private PhysicalBatch batch(RowSite site) {
    final int index = site.shard() * write.tablesPerShard() + site.table();
    PhysicalBatch batch = batches.get(index);
    if (batch == null) {
      batch = new PhysicalBatch(write, site.shard(), write.site(site),
          InsertSql.of(write.site(site)));
      batches.set(index, batch);
    }
    return batch;
  }

  /** Closes the statements; the transaction keeps its connections. */
  @Override public void close() {
    for (PhysicalBatch batch : batches) {
      if (batch != null) {
        batch.close();
      }
    }
  }
}
