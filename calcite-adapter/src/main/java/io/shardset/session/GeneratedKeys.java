package io.shardset.session;

import java.util.List;

/**
 * The keys a statement's INSERT gave its rows, as {@code getGeneratedKeys()} lists them.
 *
 * @param columns the columns' names
 * @param jdbcTypes each column's {@link java.sql.Types} code
 * @param rows a row per inserted row, in the order the statement gave them
 */
public record GeneratedKeys(List<String> columns, List<Integer> jdbcTypes, List<Object[]> rows) {
  /** No keys. */
  public static final GeneratedKeys NONE = new GeneratedKeys(List.of(), List.of(), List.of());

  public GeneratedKeys {
    columns = List.copyOf(columns);
    jdbcTypes = List.copyOf(jdbcTypes);
    rows = List.copyOf(rows);
  }
}
