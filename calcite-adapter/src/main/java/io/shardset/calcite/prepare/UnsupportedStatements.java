package io.shardset.calcite.prepare;

import io.shardset.calcite.guard.StatementRefusedException;

import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlTableRef;

/**
 * Refuses, before Calcite prepares them, the statements Calcite parses but would not run as
 * written.
 *
 * <ul>
 * <li>{@code UPSERT INTO}: SQL-to-rel conversion drops the UPSERT keyword, so the statement
 * would run as a plain INSERT and fail on a duplicate key (or, on a table without a key, add a
 * second row) where the user asked for an update. MERGE says what to do when the key exists,
 * and ShardSet runs it as each shard's native upsert.
 * <li>{@code MERGE} without {@code WHEN MATCHED}: its plan inserts every source row, matched
 * or not, and Calcite's own executor fails on it with an assertion.
 * <li>A hint on the target of an INSERT: Calcite drops it, and a {@code SHARDS} hint there
 * would be a promise ShardSet does not keep.
 * </ul>
 */
final class UnsupportedStatements {
  private UnsupportedStatements() {
  }

  /**
   * Throws if the statement, or the statement it explains, is one Calcite would not run as
   * written.
   *
   * @throws UnsupportedOperationException naming the table and saying what to write instead
   */
  static void check(SqlNode statement) {
    final SqlNode node = statement instanceof SqlExplain explain
        ? explain.getExplicandum() : statement;
    if (node instanceof SqlInsert insert && insert.isUpsert()) {
      throw new UnsupportedOperationException("UPSERT INTO " + insert.getTargetTable()
          + " is not supported (Calcite would run it as a plain INSERT); use MERGE INTO "
          + insert.getTargetTable() + " USING (VALUES ...) s (...) ON (primary key ="
          + " s.key) WHEN MATCHED THEN UPDATE SET ... WHEN NOT MATCHED THEN INSERT ...");
    }
    if (node instanceof SqlInsert insert && insert.getTargetTable() instanceof SqlTableRef ref) {
      throw new StatementRefusedException("INSERT INTO " + ref.getOperandList().get(0)
          + ": a hint on the target of an INSERT is not followed, since each row goes to the"
          + " shard its key routes to; hint the query that gives the rows instead",
          StatementRefusedException.INVALID_STATEMENT);
    }
    if (node instanceof SqlMerge merge && merge.getUpdateCall() == null) {
      throw new UnsupportedOperationException("MERGE into " + merge.getTargetTable()
          + " without WHEN MATCHED is not supported: the plan does not say which source rows"
          + " match; add WHEN MATCHED THEN UPDATE SET, or use INSERT");
    }
  }
}
