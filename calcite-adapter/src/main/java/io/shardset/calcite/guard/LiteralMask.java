package io.shardset.calcite.guard;

/**
 * SQL text with its literal values masked, for logs: each quoted string becomes {@code '?'}
 * and each number {@code ?}, so that a logged statement shows its shape and not the data it
 * names. Quoted identifiers ({@code "K1"}, {@code `K1`}) and names that contain digits are
 * kept.
 */
public final class LiteralMask {
  private LiteralMask() {
  }

  /** The text with its literals masked. */
  public static String mask(String sql) {
    final StringBuilder out = new StringBuilder(sql.length());
    int i = 0;
    while (i < sql.length()) {
      final char c = sql.charAt(i);
      if (c == '\'') {
        i = skipQuoted(sql, i, '\'');
        out.append("'?'");
      } else if (c == '"' || c == '`') {
        final int end = skipQuoted(sql, i, c);
        out.append(sql, i, end);
        i = end;
      } else if (Character.isDigit(c) && (i == 0 || !isNamePart(sql.charAt(i - 1)))) {
        while (i < sql.length() && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.'
            || sql.charAt(i) == 'E' || sql.charAt(i) == 'e')) {
          i++;
        }
        out.append('?');
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** The index after the quoted text starting at {@code start}; a doubled quote is part of
   * it. */
  private static int skipQuoted(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return sql.length();
  }

  private static boolean isNamePart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
