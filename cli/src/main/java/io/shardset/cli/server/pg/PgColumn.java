package io.shardset.cli.server.pg;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A result column as a RowDescription describes it.
 *
 * @param name its name as the client sees it (see {@link #clientName})
 * @param type its PostgreSQL type
 */
record PgColumn(String name, PgType type) {
  PgColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /** The columns of a result. */
  static List<PgColumn> of(ResultSetMetaData metaData) throws SQLException {
    final List<PgColumn> columns = new ArrayList<>(metaData.getColumnCount());
    for (int i = 1; i <= metaData.getColumnCount(); i++) {
      columns.add(new PgColumn(clientName(metaData.getColumnLabel(i)),
          PgType.of(metaData.getColumnType(i), metaData.getColumnTypeName(i),
              metaData.getPrecision(i), metaData.getScale(i))));
    }
    return columns;
  }

  /**
   * A name as a PostgreSQL client expects it: a model's upper-case name (an unquoted name in
   * standard SQL) in lower case, an unquoted name in PostgreSQL, so that {@code SELECT *}
   * gives the columns {@code order_id} and {@code total} that {@code SELECT order_id, total}
   * gives; a name with any lower-case letter is quoted in the model, and stays as it is.
   */
  static String clientName(String name) {
    if (GENERATED.matcher(name).matches()) {
      // Calcite's name of an expression without an alias; PostgreSQL's is ?column?.
      return "?column?";
    }
    return name.equals(name.toUpperCase(Locale.ROOT)) ? name.toLowerCase(Locale.ROOT) : name;
  }

  /** The names Calcite gives expressions without an alias: EXPR$0, EXPR$1, ... */
  private static final Pattern GENERATED = Pattern.compile("EXPR\\$\\d+");
}
