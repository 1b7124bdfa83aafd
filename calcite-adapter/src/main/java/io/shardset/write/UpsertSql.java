package io.shardset.write;

import io.shardset.topology.IdentifierQuoting;
import io.shardset.topology.ShardSite;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The native upsert statement of a physical table, in its shard's dialect, and which values
 * of an upsert's input row (see {@link UpsertSpec}) its parameters take.
 *
 * @param sql the statement
 * @param parameters for each parameter, the index of its value in the input row
 */
public record UpsertSql(String sql, List<Integer> parameters) {
  public UpsertSql {
    parameters = List.copyOf(parameters);
  }

  /** The statement upserting one row into the physical table at {@code site}. */
  public static UpsertSql of(ShardSite site, UpsertForm form, UpsertSpec spec) {
    return of(site, form, spec, 1);
  }

  /**
   * The statement upserting {@code rows} rows at once into the physical table at
   * {@code site}: its parameters are the rows' values one row after the other. The rows must
   * have distinct keys (a database refuses to change a row twice in one statement), and
   * every updated column must take the value it would have been inserted with.
   *
   * @throws IllegalArgumentException if {@code rows} is above one and an updated column
   *     takes a value of its own
   */
  public static UpsertSql of(ShardSite site, UpsertForm form, UpsertSpec spec, int rows) {
    if (rows < 1 || rows > 1 && spec.updateFromInsert().contains(false)) {
      throw new IllegalArgumentException("an upsert of " + rows + " rows must update columns"
          + " from the inserted values only");
    }
    final IdentifierQuoting q = site.quoting();
    final List<String> columns = site.physicalColumns().stream().map(q::quote).toList();
    final int width = columns.size();
    final List<Integer> parameters = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      for (int i = 0; i < width; i++) {
        parameters.add(i);
      }
    }
    final List<String> sets = new ArrayList<>();
    for (int j = 0; j < spec.updateColumns().size(); j++) {
      final String column = columns.get(spec.updateColumns().get(j));
      if (spec.updateFromInsert().get(j)) {
        sets.add(column + " = " + inserted(form, q, column));
      } else {
        sets.add(column + " = ?");
        parameters.add(width + j);
      }
    }
    final String tuple = "(" + String.join(", ", Collections.nCopies(width, "?")) + ")";
    final String marks = String.join(", ", Collections.nCopies(rows, tuple));
    final String list = String.join(", ", columns);
    final String sql = switch (form) {
    case ON_CONFLICT -> "INSERT INTO " + site.quotedName() + " (" + list + ") VALUES "
          + marks + " ON CONFLICT (" + keys(spec, columns) + ") DO "
          + (sets.isEmpty() ? "NOTHING" : "UPDATE SET " + String.join(", ", sets));
    case ON_DUPLICATE_KEY -> "INSERT INTO " + site.quotedName() + " (" + list
          + ") VALUES " + marks + " ON DUPLICATE KEY UPDATE " + (sets.isEmpty()
              // A key-only table: assigning a key column its own value changes nothing.
              ? columns.get(spec.keyColumns().get(0)) + " = "
                  + columns.get(spec.keyColumns().get(0))
              : String.join(", ", sets));
    case STANDARD_MERGE -> "MERGE INTO " + site.quotedName() + " " + q.quote("t")
          + " USING (VALUES " + marks + ") " + q.quote("s") + " (" + list + ") ON "
          + spec.keyColumns().stream().map(k -> q.quote("t") + "." + columns.get(k) + " = "
              + q.quote("s") + "." + columns.get(k)).collect(Collectors.joining(" AND "))
          + (sets.isEmpty() ? "" : " WHEN MATCHED THEN UPDATE SET " + String.join(", ", sets))
          + " WHEN NOT MATCHED THEN INSERT (" + list + ") VALUES ("
          + columns.stream().map(c -> q.quote("s") + "." + c)
              .collect(Collectors.joining(", ")) + ")";
    };
    return new UpsertSql(sql, parameters);
  }

  /** The parameter values of an input row, in the statement's order. */
  public Object[] bind(Object[] row) {
    final Object[] values = new Object[parameters.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row[parameters.get(i)];
    }
    return values;
  }

  private static String inserted(UpsertForm form, IdentifierQuoting q, String column) {
    return switch (form) {
    case ON_CONFLICT -> "EXCLUDED." + column;
    case ON_DUPLICATE_KEY -> "VALUES(" + column + ")";
    case STANDARD_MERGE -> q.quote("s") + "." + column;
    };
  }

  private static String keys(UpsertSpec spec, List<String> columns) {
    return spec.keyColumns().stream().map(columns::get).collect(Collectors.joining(", "));
  }
}
