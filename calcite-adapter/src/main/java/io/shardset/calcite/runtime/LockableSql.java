package io.shardset.calcite.runtime;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a shard's SELECT locks the rows it reads when {@code FOR UPDATE} is added at its
 * end: only when it is one SELECT over its tables, with no derived table, subquery, set
 * operation, common table expression, grouping or DISTINCT. H2 and MariaDB accept
 * {@code FOR UPDATE} after a SELECT from a derived table and lock nothing; PostgreSQL refuses
 * it after a UNION, which a scan of several subpartitions or a table that is being moved
 * reads.
 *
 * <p>The check reads the text: a word in a string literal can only make it say no, which is
 * the safe answer (the rows are then locked another way).
 */
final class LockableSql {
  private static final Pattern SELECT = Pattern.compile("\\bSELECT\\b");
  private static final Pattern OTHER = Pattern.compile(
      "\\b(UNION|INTERSECT|EXCEPT|MINUS|WITH|GROUP\\s+BY|DISTINCT|OVER)\\b");

  private LockableSql() {
  }

  /** Whether {@code FOR UPDATE} at the end of the text locks every row it reads. */
  static boolean isSimple(String sql) {
    final String upper = sql.toUpperCase(Locale.ROOT);
    final Matcher select = SELECT.matcher(upper);
    int selects = 0;
    while (select.find()) {
      selects++;
    }
    return selects == 1 && !OTHER.matcher(upper).find();
  }
}
