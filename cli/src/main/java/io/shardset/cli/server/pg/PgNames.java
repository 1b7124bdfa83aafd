package io.shardset.cli.server.pg;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Names and lists in the statements the session reads itself (cursors, PREPARE,
 * RETURNING): a name as PostgreSQL's grammar takes it, folded as PostgreSQL folds it, and the
 * items of a comma-separated list.
 */
final class PgNames {
  /** A regular expression group of one name: quoted ({@code "All Items"}) or not. */
  static final String NAME = "(\"(?:[^\"]|\"\")+\"|[\\p{L}_][\\p{L}\\p{N}_$]*)";

  private PgNames() {
  }

  /** A name as PostgreSQL folds it: quoted, as written; else in lower case. */
  static String fold(String name) {
    return name.startsWith("\"") ? name.substring(1, name.length() - 1).replace("\"\"", "\"")
        : name.toLowerCase(Locale.ROOT);
  }

  /** The items of a comma-separated list, split outside strings, quoted names and
   * parentheses, each trimmed. */
  static List<String> items(String list) {
    final List<String> items = new ArrayList<>();
    int depth = 0;
    int start = 0;
    int i = 0;
    while (i < list.length()) {
      final char c = list.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        items.add(list.substring(start, i).trim());
        start = i + 1;
      }
      i = Math.max(i + 1, SimpleQueryText.tokenEnd(list, i));
    }
    items.add(list.substring(start).trim());
    return items;
  }
}
