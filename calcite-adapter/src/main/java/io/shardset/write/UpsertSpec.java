package io.shardset.write;

import java.util.List;
import java.util.Objects;

/**
 * An upsert by primary key, as each shard's native statement runs it. Each input row is the
 * row to insert (every column of the table, in column order) followed by the value of each
 * updated column; a row whose key the table holds gets the updated columns' values instead.
 *
 * @param keyColumns the table column index of each primary-key column
 * @param updateColumns the table column index of each column a matched row gets a new
 *     value of
 * @param updateFromInsert for each updated column, whether its new value is the value the row
 *     would have been inserted with (the statement then says so, rather than sending it twice)
 * @param forms the native statement of each of the table's shards, in its shard order
 */
public record UpsertSpec(List<Integer> keyColumns, List<Integer> updateColumns,
    List<Boolean> updateFromInsert, List<UpsertForm> forms) {
  public UpsertSpec {
    keyColumns = List.copyOf(keyColumns);
    updateColumns = List.copyOf(updateColumns);
    updateFromInsert = List.copyOf(updateFromInsert);
    forms = List.copyOf(forms);
    if (keyColumns.isEmpty()) {
      throw new IllegalArgumentException("an upsert needs a primary key");
    }
    if (updateColumns.size() != updateFromInsert.size()) {
      throw new IllegalArgumentException("one flag per updated column");
    }
    Objects.requireNonNull(forms, "forms");
  }
}
