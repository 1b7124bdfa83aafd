package io.shardset.calcite.runtime;

import io.shardset.write.RowChanger;
import io.shardset.write.RowLocker;
import io.shardset.write.TableWrite;

import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * UPDATE or DELETE row by row: the rows the statement's read plan finds (the table's columns
 * and, for an UPDATE, the new value of each column set) are changed by primary key at their
 * physical tables through {@link RowChanger}, which moves a row whose routing columns change.
 *
 * <p>The read runs in the write's transaction, so it sees what the transaction wrote before,
 * and locks the rows it finds ({@code SELECT ... FOR UPDATE}); where a shard's SQL cannot lock
 * (a union of subpartitions, a derived table) the rows are locked by key and checked unchanged
 * before any change ({@link RowLocker}). All rows are read before the first change is sent,
 * so that a change never meets its own effect.
 */
final class RowChanges {
  private RowChanges() {
  }

  /**
   * Fails unless the table has the primary key row-wise changes find rows by: naming the
   * routing column an UPDATE sets (its rows must move), else the table.
   */
  static void checkKey(WriteTarget target) throws SQLException {
    if (!target.table().layout().primaryKey().isEmpty()) {
      return;
    }
    final List<Integer> routing = target.routingColumns();
    for (int column : target.updated()) {
      if (routing.contains(column)) {
        throw new SQLException("table " + target.table().qualifiedName() + ": cannot UPDATE"
            + " column " + target.table().layout().columns().get(column).name() + ", which"
            + " decides where a row lives, without a primary key: a changed row is moved by"
            + " deleting it by its primary key where it is and inserting it where it"
            + " belongs", "0A000");
      }
    }
    throw new SQLException("table " + target.table().qualifiedName() + " has no primary key:"
        + " this " + target.operation() + " cannot run inside the shards, and its rows"
        + " cannot be changed one by one", "0A000");
  }

  /**
   * Changes the rows the input gives.
   *
   * @param readsLocked says, once the input was read, whether its reads locked the rows
   */
  static long change(WriteTarget target, TableWrite write, Enumerable<Object[]> input,
      BooleanSupplier readsLocked) throws SQLException {
    final WriteValues values = new WriteValues(target.jdbcTypes());
    final int columns = target.table().layout().columns().size();
    final List<Object[]> rows = new ArrayList<>();
    try (Enumerator<Object[]> read = input.enumerator()) {
      while (read.moveNext()) {
        rows.add(read.current());
      }
    }
    final List<Object[]> olds = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      olds.add(values.toJdbc(Arrays.copyOf(row, columns)));
    }
    if (!readsLocked.getAsBoolean()) {
      RowLocker.lockUnchanged(write, olds);
    }
    try (RowChanger changer = RowChanger.open(write, ShardWrites.BATCH_SIZE,
        target.updated())) {
      for (int r = 0; r < rows.size(); r++) {
        final Object[] row = rows.get(r);
        final Object[] old = olds.get(r);
        if (target.operation() == ShardWrites.Operation.DELETE) {
          changer.delete(old);
          continue;
        }
        final Object[] changed = old.clone();
        final List<Integer> updated = target.updated();
        for (int i = 0; i < updated.size(); i++) {
          changed[updated.get(i)] = values.toJdbc(updated.get(i), row[columns + i]);
        }
        changer.update(old, changed);
      }
      return changer.finish();
    }
  }
}
