package io.shardset.write;

import io.shardset.model.ColumnInfo;
import io.shardset.session.GeneratedKeys;
import io.shardset.topology.RowSite;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

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
  /** The columns sent to the shards, or null for all; the others take the shards'
   * defaults. */
  private final int @Nullable [] sent;
  /** The columns whose values {@link #keys} lists, or empty. */
  private final List<Integer> keyColumns;
  /** What the shards give the key columns the INSERT leaves to them; null for none. */
  private final @Nullable ReturnedKeys returned;
  /** Each row's values of the key columns it gives, while keys are asked for. */
  private final List<Object[]> given = new ArrayList<>();
  /** One batch per physical table, by shard * tablesPerShard + table; null until used. */
  private final List<PhysicalBatch> batches = new ArrayList<>();
  private long rows;

  private RowInserter(TableWrite write, int batchSize, List<Integer> defaulted,
      List<Integer> keyColumns) {
    this.write = write;
    this.batchSize = batchSize;
    this.columns = write.table().layout().columns().size();
    this.sent = defaulted.isEmpty() ? null : IntStream.range(0, columns)
        .filter(c -> !defaulted.contains(c)).toArray();
    this.keyColumns = List.copyOf(keyColumns);
    final List<Integer> fromShards = keyColumns.stream().filter(defaulted::contains).toList();
    this.returned = fromShards.isEmpty() ? null : new ReturnedKeys(fromShards,
        write.table().layout().columns());
    for (int i = 0; i < write.table().shardCount() * write.tablesPerShard(); i++) {
      batches.add(null);
    }
  }

  /** An inserter that sends a physical table's rows every {@code batchSize} rows. */
  public static RowInserter open(TableWrite write, int batchSize) {
    return open(write, batchSize, List.of());
  }

  /**
   * An inserter that sends a physical table's rows every {@code batchSize} rows, without the
   * columns {@code defaulted}, which the shards fill with their defaults.
   */
  public static RowInserter open(TableWrite write, int batchSize, List<Integer> defaulted) {
    return open(write, batchSize, defaulted, List.of());
  }

  /**
   * An inserter as {@link #open(TableWrite, int, List)} makes, which also lists the values of
   * {@code keyColumns} of each row ({@link #keys}): the row's own, or, for a column the row
   * leaves to the shard, the shard's.
   */
  public static RowInserter open(TableWrite write, int batchSize, List<Integer> defaulted,
      List<Integer> keyColumns) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
    return new RowInserter(write, batchSize, defaulted, keyColumns);
  }

  /** What {@code getGeneratedKeys()} lists for the rows inserted so far (after
   * {@link #finish}); none when no key columns were asked for. */
  public GeneratedKeys generatedKeys() {
    if (keyColumns.isEmpty()) {
      return GeneratedKeys.NONE;
    }
    final List<ColumnInfo> layout = write.table().layout().columns();
    return new GeneratedKeys(keyColumns.stream().map(c -> layout.get(c).name()).toList(),
        keyColumns.stream().map(c -> layout.get(c).jdbcType()).toList(), keys());
  }

  /**
   * The key columns' values of each row inserted so far, in the order given (call after
   * {@link #finish}): the row's own value, or the one the shard gave a column left to it.
   */
  public List<Object[]> keys() {
    final List<Object[]> keys = new ArrayList<>(given.size());
    for (int row = 0; row < given.size(); row++) {
      final Object[] values = given.get(row).clone();
      final Object[] fromShard = returned == null ? null : returned.of(row);
      int next = 0;
      for (int i = 0; i < keyColumns.size(); i++) {
        if (!isSent(keyColumns.get(i))) {
          values[i] = fromShard == null ? null : fromShard[next++];
        }
      }
      keys.add(values);
    }
    return keys;
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
    final Object[] values = sent(row);
    final int ordinal = (int) rows;
    if (!keyColumns.isEmpty()) {
      final Object[] own = new Object[keyColumns.size()];
      for (int i = 0; i < own.length; i++) {
        own[i] = row[keyColumns.get(i)];
      }
      given.add(own);
    }
    boolean first = true;
    for (RowSite site : write.place(row)) {
      final PhysicalBatch batch = batch(site);
      if (returned != null && first) {
        // A duplicated table's row: the keys of its first copy.
        batch.add(values, ordinal, returned);
      } else {
        batch.add(values);
      }
      first = false;
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

  /** Whether the INSERT sends the column's values, rather than leave it to the shards. */
  private boolean isSent(int column) {
    return sent == null || Arrays.stream(sent).anyMatch(c -> c == column);
  }

  /** The values of the columns sent. */
  private Object[] sent(Object[] row) {
    if (sent == null) {
      return row;
    }
    final Object[] values = new Object[sent.length];
    for (int i = 0; i < sent.length; i++) {
      values[i] = row[sent[i]];
    }
    return values;
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
          InsertSql.of(write.site(site), 1, sent == null ? null
              : Arrays.stream(sent).boxed().toList()));
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
