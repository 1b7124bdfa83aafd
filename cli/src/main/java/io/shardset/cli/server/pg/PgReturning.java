package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An {@code INSERT ... RETURNING} of column names or {@code *}, as pgJDBC writes one for
 * {@code getGeneratedKeys} ({@code RETURNING *} for {@code RETURN_GENERATED_KEYS},
 * {@code RETURNING "id"} for named columns): the INSERT without the clause, which ShardSet
 * runs asking for the columns as generated keys, and the columns it returns.
 *
 * @param insert the statement without its RETURNING clause
 * @param schema the schema the INSERT names, as PostgreSQL folds it, or null
 * @param table the table it inserts into, as PostgreSQL folds it
 * @param columns the columns it returns, as PostgreSQL folds them; null for {@code *}
 */
record PgReturning(String insert, @Nullable String schema, String table,
    @Nullable List<String> columns) {
  private static final String RETURNING = "returning";
  private static final Pattern INTO = Pattern.compile("(?is)\\s*insert\\s+into\\s+(?:"
      + PgNames.NAME + "\\s*\\.\\s*)?" + PgNames.NAME + ".*");
  private static final Pattern COLUMN = Pattern.compile("(?s)" + PgNames.NAME);

  PgReturning {
    columns = columns == null ? null : List.copyOf(columns);
  }

  /**
   * The RETURNING clause of an INSERT, if it has one.
   *
   * @throws PgProtocolException (0A000) for a RETURNING of anything but column names and *
   */
  static Optional<PgReturning> of(String sql) {
    final int at = clause(sql);
    final Matcher into = INTO.matcher(sql);
    if (at < 0 || !into.matches()) {
      return Optional.empty();
    }
    String list = sql.substring(at + RETURNING.length()).trim();
    if (list.endsWith(";")) {
      list = list.substring(0, list.length() - 1).trim();
    }
    List<String> columns = new ArrayList<>();
    for (String item : PgNames.items(list)) {
      final String column = item.trim();
      if (column.equals("*")) {
        columns = null;
        break;
      }
      if (!COLUMN.matcher(column).matches()) {
        throw new PgProtocolException("0A000",
            "RETURNING takes column names or *, not: " + column);
      }
      columns.add(PgNames.fold(column));
    }
    return Optional.of(new PgReturning(sql.substring(0, at).trim(),
        into.group(1) == null ? null : PgNames.fold(into.group(1)),
        PgNames.fold(into.group(2)), columns));
  }

  /** Where the word RETURNING starts outside strings, comments and parentheses; else -1. */
  private static int clause(String sql) {
    int depth = 0;
    int i = 0;
    while (i < sql.length()) {
      final char c = sql.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (depth == 0 && sql.regionMatches(true, i, RETURNING, 0, RETURNING.length())
          && SimpleQueryText.tokenEnd(sql, i) == i + RETURNING.length()) {
        return i;
      }
      i = Math.max(i + 1, SimpleQueryText.tokenEnd(sql, i));
    }
    return -1;
  }

}
