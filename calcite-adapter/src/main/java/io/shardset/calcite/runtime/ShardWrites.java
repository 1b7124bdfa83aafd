package io.shardset.calcite.runtime;

import io.shardset.calcite.ConnectionTransactions;
import io.shardset.execution.StatementTracker;
import io.shardset.transaction.ShardTransaction;
import io.shardset.write.RowInserter;
import io.shardset.write.TableWrite;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.Types;

import java.lang.reflect.Method;
import java.sql.SQLException;

/**
 * Runs a write that generated code hands over: the statement's transaction is begun (or the
 * connection's joined), the input rows converted from Calcite's representation and written
 * through {@link io.shardset.write}, and the transaction committed when the statement owns it
 * (autocommit). On any failure nothing of the statement stays: its transaction, or the
 * connection's, is rolled back.
 */
public final class ShardWrites {
  /** {@link #write}, for generated code. */
  public static final Method WRITE = Types.lookupMethod(ShardWrites.class, "write",
      DataContext.class, WriteTarget.class, ConnectionTransactions.class, Enumerable.class);

  /** {@link #pushed}, for generated code. */
  public static final Method PUSHED = Types.lookupMethod(ShardWrites.class, "pushed",
      DataContext.class, PushedWrite.class, ConnectionTransactions.class,
      StatementTracker.class);

  /** Rows sent to a physical table per JDBC batch. */
  static final int BATCH_SIZE = 500;

  /** What a write does to its table. */
  public enum Operation { INSERT, UPDATE, DELETE, MERGE }

  private ShardWrites() {
  }

  /**
   * The write's row count, as one BIGINT row; the write runs when it is first enumerated.
   *
   * @throws WriteFailedException carrying the SQLException (its SQLState the client's), when
   *     the write fails
   */
  public static Enumerable<Long> write(DataContext root, WriteTarget target,
      ConnectionTransactions transactions, Enumerable<Object[]> rows) {
    return DeferredCount.of(() -> run(root, target, transactions, rows));
  }

  /**
   * The row count of an UPDATE or DELETE that the target shards run themselves, as one
   * BIGINT row; the write runs when it is first enumerated.
   *
   * @throws WriteFailedException carrying the SQLException, when the write fails; its shard
   *     statements are recorded in the client statement {@code statements} tracks, if any
   */
  public static Enumerable<Long> pushed(DataContext root, PushedWrite pushed,
      ConnectionTransactions transactions, StatementTracker statements) {
    return DeferredCount.of(() -> {
      final WriteTarget target = pushed.target();
      try (ConnectionTransactions.StatementWrite statement = transactions.begin(root,
          target.coordinator(), target.table().qualifiedName())) {
        final long count = PushedWrites.run(TableWrite.open(target.table(),
            statement.transaction()), pushed, root,
            statements.of(DataContext.Variable.CANCEL_FLAG.get(root)));
        statement.complete();
        return count;
      }
    });
  }

  private static long run(DataContext root, WriteTarget target,
      ConnectionTransactions transactions, Enumerable<Object[]> rows) throws SQLException {
    if (target.operation() == Operation.MERGE) {
      throw new SQLException(target.operation() + " of table "
          + target.table().qualifiedName() + " is not supported", "0A000");
    }
    if (target.operation() != Operation.INSERT) {
      RowChanges.checkKey(target);
    }
    if (target.operation() == Operation.INSERT) {
      return insert(root, target, transactions, rows);
    }
    try (ConnectionTransactions.StatementWrite statement =
        transactions.begin(root, target.coordinator(), target.table().qualifiedName())) {
      final TableWrite write = TableWrite.open(target.table(), statement.transaction());
      final long count = RowChanges.change(target, write, rows);
      statement.complete();
      return count;
    }
  }

  private static long insert(DataContext root, WriteTarget target,
      ConnectionTransactions transactions, Enumerable<Object[]> rows) throws SQLException {
    try (ConnectionTransactions.StatementWrite statement = transactions.beginInsert(root,
        target.coordinator(), target.table().qualifiedName())) {
      final RowInserter batched = statement.batchInserter(target.table(),
          transaction -> inserter(target, transaction));
      final long count;
      if (batched != null) {
        // A JDBC batch's row: sent with the batch's others when the batch ends.
        count = insert(target, batched, rows);
      } else {
        try (RowInserter inserter = inserter(target, statement.transaction())) {
          insert(target, inserter, rows);
          count = inserter.finish();
        }
      }
      statement.complete();
      return count;
    }
  }

  private static RowInserter inserter(WriteTarget target, ShardTransaction transaction)
      throws SQLException {
    return RowInserter.open(TableWrite.open(target.table(), transaction), BATCH_SIZE);
  }

  /** Gives the rows to the inserter; returns how many. */
  private static long insert(WriteTarget target, RowInserter inserter,
      Enumerable<Object[]> rows) throws SQLException {
    final WriteValues values = new WriteValues(target.jdbcTypes());
    long count = 0;
    try (Enumerator<Object[]> input = rows.enumerator()) {
      while (input.moveNext()) {
        inserter.insert(values.toJdbc(input.current()));
        count++;
      }
    }
    return count;
  }
}
