package io.shardset.calcite.runtime;

import io.shardset.execution.QueryTimeout;
import io.shardset.session.SessionWrite;
import io.shardset.session.Sessions;
import io.shardset.session.ShardSession;
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
      DataContext.class, MergeTarget.class, Sessions.class, Enumerable.class);

  private ShardMerges() {
  }

  /**
   * The MERGE's row count (rows inserted plus rows updated), as one BIGINT row; the write
   * runs when it is first enumerated.
   *
   * @throws WriteFailedException carrying the SQLException, when the write fails
   */
  public static Enumerable<Long> merge(DataContext root, MergeTarget target,
      Sessions sessions, Enumerable<Object[]> rows) {
    return DeferredCount.of(() -> run(target, sessions.of(root.getQueryProvider()), rows,
        ScanRunner.timeout(root)));
  }

  private static long run(MergeTarget target, ShardSession session,
      Enumerable<Object[]> rows, QueryTimeout timeout) throws SQLException {
    final WriteValues values = new WriteValues(target.jdbcTypes());
    // A native upsert is a statement the shards run; a row-wise MERGE reads the rows it
    // changes through its transaction, locking them.
    try (SessionWrite statement = session.beginWrite(target.coordinator(),
        target.table().qualifiedName(), target.upsert() != null
            ? ShardSession.WriteKind.PUSHED : ShardSession.WriteKind.ROWS)) {
      try {
        final long count = write(target, values,
            TableWrite.open(target.table(), statement.transaction(), timeout), rows);
        statement.complete(count);
        return count;
      } catch (SQLException e) {
        throw statement.explain(e);
      }
    }
  }

  private static long write(MergeTarget target, WriteValues values, TableWrite write,
      Enumerable<Object[]> rows) throws SQLException {
    if (target.upsert() != null) {
      try (RowUpserter upserter = RowUpserter.open(write, target.upsert(),
          ShardWrites.BATCH_SIZE); Enumerator<Object[]> input = rows.enumerator()) {
        while (input.moveNext()) {
          upserter.upsert(values.toJdbc(input.current()));
        }
        return upserter.finish();
      }
    }
    try (RowMerger merger = RowMerger.open(write, target.rowWise(),
        ShardWrites.BATCH_SIZE); Enumerator<Object[]> input = rows.enumerator()) {
      while (input.moveNext()) {
        merger.merge(values.toJdbc(input.current()));
      }
      return merger.finish();
    }
  }
}
