package io.shardset.calcite.runtime;

import io.shardset.execution.QueryTimeout;
import io.shardset.execution.StatementTracker;
import io.shardset.session.SessionWrite;
import io.shardset.session.Sessions;
import io.shardset.session.ShardSession;
import io.shardset.transaction.ShardTransaction;
import io.shardset.write.BatchedInserts;
import io.shardset.write.RowInserter;
import io.shardset.write.TableWrite;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.Types;

import java.lang.reflect.Method;
import java.sql.SQLException;
import java.util.List;

/**
 * Runs a write that generated code hands over: the statement's transaction is begun (or its
 * session's joined, see {@link ShardSession#beginWrite}), the input rows converted from
 * Calcite's representation and written through {@link io.shardset.write}, and the
 * transaction committed when the statement owns it (autocommit). An UPDATE or DELETE that
 * changes rows one by one reads them through its transaction and locks them. On any failure
 * nothing of the statement stays: its own transaction is rolled back, or its session's
 * aborted.
 */
public final class ShardWrites {
  /** {@link #write}, for generated code. */
  public static final Method WRITE = Types.lookupMethod(ShardWrites.class, "write",
      DataContext.class, WriteTarget.class, Sessions.class, Enumerable.class);

  /** {@link #pushed}, for generated code. */
  public static final Method PUSHED = Types.lookupMethod(ShardWrites.class, "pushed",
      DataContext.class, PushedWrite.class, Sessions.class, StatementTracker.class);

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
      Sessions sessions, Enumerable<Object[]> rows) {
    return DeferredCount.of(() -> run(root, target, sessions.of(root.getQueryProvider()), rows));
  }

  /**
   * The row count of an UPDATE or DELETE that the target shards run themselves, as one
   * BIGINT row; the write runs when it is first enumerated.
   *
   * @throws WriteFailedException carrying the SQLException, when the write fails; its shard
   *     statements are recorded in the client statement {@code statements} tracks, if any
   */
  public static Enumerable<Long> pushed(DataContext root, PushedWrite pushed,
      Sessions sessions, StatementTracker statements) {
    return DeferredCount.of(() -> {
      final WriteTarget target = pushed.target();
      final ShardSession session = sessions.of(root.getQueryProvider());
      try (SessionWrite statement = session.beginWrite(target.coordinator(),
          target.table().qualifiedName(), ShardSession.WriteKind.PUSHED)) {
        try {
          final long count = PushedWrites.run(TableWrite.open(target.table(),
              statement.transaction(), ScanRunner.timeout(root)), pushed, root,
              statements.of(DataContext.Variable.CANCEL_FLAG.get(root)));
          statement.complete(count);
          return count;
        } catch (SQLException e) {
          throw statement.explain(e);
        }
      }
    });
  }

  private static long run(DataContext root, WriteTarget target, ShardSession session,
      Enumerable<Object[]> calciteRows) throws SQLException {
    final Enumerable<Object[]> rows = target.exact().restore(calciteRows, root);
    if (target.operation() == Operation.MERGE) {
      throw new SQLException(target.operation() + " of table "
          + target.table().qualifiedName() + " is not supported", "0A000");
    }
    if (target.operation() != Operation.INSERT) {
      RowChanges.checkKey(target);
    }
    final QueryTimeout timeout = ScanRunner.timeout(root);
    if (target.operation() == Operation.INSERT) {
      return insert(target, session, rows, timeout);
    }
    try (SessionWrite statement = session.beginWrite(target.coordinator(),
        target.table().qualifiedName(), ShardSession.WriteKind.ROWS)) {
      try {
        final TableWrite write = TableWrite.open(target.table(), statement.transaction(),
            timeout);
        final long count = RowChanges.change(target, write, rows, statement::readsLocked);
        statement.complete(count);
        return count;
      } catch (SQLException e) {
        throw statement.explain(e);
      }
    }
  }

  private static long insert(WriteTarget target, ShardSession session,
      Enumerable<Object[]> rows, QueryTimeout timeout) throws SQLException {
    try (SessionWrite statement = session.beginWrite(target.coordinator(),
        target.table().qualifiedName(), ShardSession.WriteKind.INSERT)) {
      try {
        final BatchedInserts batch = session.batch(BatchedInserts.class, BatchedInserts::new);
        final List<Integer> keys = KeyColumns.of(session.keyRequest(), target);
        final long count;
        if (batch != null) {
          // A JDBC batch's row: sent with the batch's others when the batch ends.
          RowInserter batched = batch.inserter(target.table(), target.defaulted());
          if (batched == null) {
            batched = inserter(target, statement.transaction(), timeout, keys);
            batch.add(target.table(), target.defaulted(), batched);
          }
          count = insert(target, batched, rows);
        } else {
          try (RowInserter inserter = inserter(target, statement.transaction(), timeout,
              keys)) {
            insert(target, inserter, rows);
            count = inserter.finish();
            if (!keys.isEmpty()) {
              session.generated(inserter.generatedKeys());
            }
          }
        }
        statement.complete(count);
        return count;
      } catch (SQLException e) {
        throw statement.explain(e);
      }
    }
  }

  private static RowInserter inserter(WriteTarget target, ShardTransaction transaction,
      QueryTimeout timeout, List<Integer> keys) throws SQLException {
    return RowInserter.open(TableWrite.open(target.table(), transaction, timeout),
        BATCH_SIZE, target.defaulted(), keys);
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
