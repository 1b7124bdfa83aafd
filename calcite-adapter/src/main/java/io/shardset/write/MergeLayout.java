package io.shardset.write;

import java.util.List;

/**
 * The rows a row-wise MERGE reads, as the planner joins the source with the table: when the
 * statement inserts, the row to insert (every column, in column order); then the table's
 * row that the source row matched (every column; all NULL when none matched); then the new
 * value of each updated column.
 *
 * @param keyColumns the table column index of each primary-key column; a matched row is
 *     updated by key, and a row whose key columns are all NULL matched none
 * @param updateColumns the table column index of each updated column; empty when the
 *     statement has no WHEN MATCHED branch
 * @param inserts whether the statement has a WHEN NOT MATCHED THEN INSERT branch
 */
public record MergeLayout(List<Integer> keyColumns, List<Integer> updateColumns,
    boolean inserts) {
  public MergeLayout {
    keyColumns = List.copyOf(keyColumns);
    updateColumns = List.copyOf(updateColumns);
    if (keyColumns.isEmpty()) {
      throw new IllegalArgumentException("a row-wise MERGE needs a primary key");
    }
  }
}
