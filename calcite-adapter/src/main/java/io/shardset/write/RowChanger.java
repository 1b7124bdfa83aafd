package io.shardset.write;

import io.shardset.topology.RowSite;
import io.shardset.topology.ShardSite;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * UPDATE and DELETE of a logical table row by row, each row found by its primary key at the
 * physical table its values place it in (every shard, for a duplicated table), in JDBC
 * batches per physical table, in the write's transaction. Each change must find its row: the
 * statement read the rows it changes through the same transaction, locking them, so a row
 * that is gone fails the statement with SQLState 40001 rather than being counted (or, for a
 * move, inserted anew as a copy).
 *
 * <p>A changed row that its new values place elsewhere (its shard key, partition column or
 * subpartition column changed), or whose primary key changed, moves: it is deleted at its
 * old site and inserted at its new one. All deletes are sent first, then the updates, then
 * the inserts, so that a key freed by one row can be taken by another. Nothing is committed
 * here: the transaction's owner commits or rolls back, all rows or none. Not thread-safe.
 */
public final class RowChanger implements AutoCloseable {
  private final TableWrite write;
  private final int batchSize;
  private final List<Integer> key;
  private final List<Integer> changed;
  private final Map<RowSite, PhysicalBatch> deletes = new LinkedHashMap<>();
  private final Map<RowSite, PhysicalBatch> updates = new LinkedHashMap<>();
  private final List<Object[]> moved = new ArrayList<>();
  private long rows;

  private RowChanger(TableWrite write, int batchSize, List<Integer> key,
      List<Integer> changed) {
    this.write = write;
    this.batchSize = batchSize;
    this.key = List.copyOf(key);
    this.changed = List.copyOf(changed);
  }

  /**
   * A changer of the table's rows.
   *
   * @param changed the columns an UPDATE sets (empty for a DELETE)
   * @throws SQLException (SQLState 0A000) if the table has no primary key, naming it
   */
  public static RowChanger open(TableWrite write, int batchSize, List<Integer> changed)
      throws SQLException {
    final List<Integer> key = write.table().layout().primaryKeyColumns();
    if (key.isEmpty() || key.contains(-1)) {
      throw new SQLException("table " + write.table().qualifiedName() + " has no primary key:"
          + " its rows cannot be changed one by one", "0A000");
    }
    return new RowChanger(write, batchSize, key, changed);
  }

  /** Deletes a row, given all its values (JDBC values, in the table's column order). */
  public void delete(Object[] row) throws SQLException {
    for (RowSite site : write.place(row)) {
      add(deletes, site, DELETE, keyOf(row));
    }
    rows++;
  }

  /**
   * Changes a row from its old values to its new ones (both complete rows, JDBC values in
   * the table's column order); the arrays are kept until sent.
   */
  public void update(Object[] old, Object[] row) throws SQLException {
    final List<RowSite> from = write.place(old);
    final List<RowSite> to = write.place(row);
    if (from.equals(to) && Arrays.equals(keyOf(old), keyOf(row))) {
      final Object[] parameters = new Object[changed.size() + key.size()];
      for (int i = 0; i < changed.size(); i++) {
        parameters[i] = row[changed.get(i)];
      }
      System.arraycopy(keyOf(old), 0, parameters, changed.size(), key.size());
      for (RowSite site : to) {
        add(updates, site, UPDATE, parameters);
      }
    } else {
      for (RowSite site : from) {
        add(deletes, site, DELETE, keyOf(old));
      }
      moved.add(row);
    }
    rows++;
  }

  /**
   * Sends everything waiting: deletes, updates, then the rows that move.
   *
   * @return the number of logical rows changed
   */
  public long finish() throws SQLException {
    for (PhysicalBatch batch : deletes.values()) {
      batch.flush();
    }
    for (PhysicalBatch batch : updates.values()) {
      batch.flush();
    }
    if (!moved.isEmpty()) {
      try (RowInserter inserter = RowInserter.open(write, batchSize)) {
        for (Object[] row : moved) {
          inserter.insert(row);
        }
        inserter.finish();
      }
    }
    return rows;
  }

  private Object[] keyOf(Object[] row) {
    final Object[] values = new Object[key.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row[key.get(i)];
    }
    return values;
  }

  private static final boolean DELETE = true;
  private static final boolean UPDATE = false;

  private void add(Map<RowSite, PhysicalBatch> batches, RowSite site, boolean delete,
      Object[] parameters) throws SQLException {
    PhysicalBatch batch = batches.get(site);
    if (batch == null) {
      final ShardSite physical = write.site(site);
      // The statement read the row, locked, through its transaction: a change by its key
      // that finds nothing means the row went since, and a move would copy it.
      batch = new PhysicalBatch(write, site.shard(), physical,
          delete ? deleteSql(physical) : updateSql(physical),
          delete ? "a DELETE by primary key" : "an UPDATE by primary key");
      batches.put(site, batch);
    }
    batch.add(parameters);
    if (batch.waiting() >= batchSize) {
      batch.flush();
    }
  }

  private String deleteSql(ShardSite site) {
    return "DELETE FROM " + site.quotedName() + " WHERE " + byKey(site);
  }

  private String updateSql(ShardSite site) {
    return "UPDATE " + site.quotedName() + " SET " + changed.stream()
        .map(c -> site.quoting().quote(site.physicalColumns().get(c)) + " = ?")
        .collect(Collectors.joining(", ")) + " WHERE " + byKey(site);
  }

  private String byKey(ShardSite site) {
    return key.stream().map(c -> site.quoting().quote(site.physicalColumns().get(c)) + " = ?")
        .collect(Collectors.joining(" AND "));
  }

  /** Closes the statements; the transaction keeps its connections. */
  @Override public void close() {
    deletes.values().forEach(PhysicalBatch::close);
    updates.values().forEach(PhysicalBatch::close);
  }
}
