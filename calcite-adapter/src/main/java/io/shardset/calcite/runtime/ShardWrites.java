package io.shardset.calcite.runtime;

import io.shardset.calcite.ConnectionTransactions;
import io.shardset.write.RowInserter;
import io.shardset.write.TableWrite;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
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
    return new AbstractEnumerable<Long>() {
      @Override public Enumerator<Long> enumerator() {
        try {
          return Linq4j.singletonEnumerable(run(root, target, transactions, rows))
              .enumerator();
        } catch (SQLException e) {
          throw new WriteFailedException(e);
        }
      }
    };
  }

  private static long run(DataContext root, WriteTarget target,
      ConnectionTransactions transactions, Enumerable<Object[]> rows) throws SQLException {
    if (target.operation() != Operation.INSERT) {
      throw new SQLException(target.operation() + " of table "
          + target.table().qualifiedName() + " is not supported", "0A000");
    }
    try (ConnectionTransactions.StatementWrite statement =
        transactions.begin(root, target.coordinator(), target.table().qualifiedName())) {
      final long count = insert(target, TableWrite.open(target.table(),
          statement.transaction()), rows);
      statement.complete();
      return count;
    }
  }

  private static long insert(WriteTarget target, TableWrite write, Enumerable<Object[]> rows)
      throws SQLException {
    final WriteValues values = new WriteValues(target.jdbcTypes());
    try (RowInserter inserter = RowInserter.open(write, BATCH_SIZE);
        Enumerator<Object[]> input = rows.enumerator()) {
      while (input.moveNext()) {
        inserter.insert(values.toJdbc(input.current()));
      }
      return inserter.finish();
    }
  }
}
