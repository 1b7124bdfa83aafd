package io.shardset.calcite.runtime;

import io.shardset.calcite.ConnectionTransactions;
import io.shardset.write.RowMerger;
import io.shardset.write.RowUpserter;
import io.shardset.write.TableWrite;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.Types;

import java.lang.reflect.Method;
import java.sql.SQLException;

/**
 * Runs a MERGE that generated code hands over, in the statement's transaction as
 * {@link ShardWrites} runs an INSERT: each input row upserted by each shard's native
 * statement, or merged row by row from the source joined with the table.
 */
public final class ShardMerges {
  /** {@link #merge}, for generated code. */
  public static final Method MERGE = Types.lookupMethod(ShardMerges.class, "merge",
      DataContext.class, MergeTarget.class, ConnectionTransactions.class, Enumerable.class);

  private ShardMerges() {
  }

  /**
   * The MERGE's row count (rows inserted plus rows updated), as one BIGINT row; the write
   * runs when it is first enumerated.
   *
   * @throws WriteFailedException carrying the SQLException, when the write fails
   */
  public static Enumerable<Long> merge(DataContext root, MergeTarget target,
      ConnectionTransactions transactions, Enumerable<Object[]> rows) {
    return DeferredCount.of(() -> run(root, target, transactions, rows));
  }

  private static long run(DataContext root, MergeTarget target,
      ConnectionTransactions transactions, Enumerable<Object[]> rows) throws SQLException {
    final WriteValues values = new WriteValues(target.jdbcTypes());
    try (ConnectionTransactions.StatementWrite statement =
        transactions.begin(root, target.coordinator(), target.table().qualifiedName())) {
      final TableWrite write = TableWrite.open(target.table(), statement.transaction());
      final long count;
      if (target.upsert() != null) {
        try (RowUpserter upserter = RowUpserter.open(write, target.upsert(),
            ShardWrites.BATCH_SIZE); Enumerator<Object[]> input = rows.enumerator()) {
          while (input.moveNext()) {
            upserter.upsert(values.toJdbc(input.current()));
          }
          count = upserter.finish();
        }
      } else {
        try (RowMerger merger = RowMerger.open(write, target.rowWise(),
            ShardWrites.BATCH_SIZE); Enumerator<Object[]> input = rows.enumerator()) {
          while (input.moveNext()) {
            merger.merge(values.toJdbc(input.current()));
          }
          count = merger.finish();
        }
      }
      statement.complete();
      return count;
    }
  }
}
