package io.shardset.calcite.prepare;

/** What is done to a statement's text before Calcite parses it. */
final class StatementText {
  private StatementText() {
  }

  /**
   * The text without the semicolons and whitespace at its end. Calcite's parser takes one
   * statement without a terminator, and a trailing {@code ;} is how statements are written in
   * scripts and other databases' JDBC drivers accept it. Two statements separated by a
   * semicolon stay two, which the parser refuses.
   */
  static String withoutTerminator(String sql) {
    int end = sql.length();
    while (end > 0 && isTerminator(sql.charAt(end - 1))) {
      end--;
    }
    return end == sql.length() ? sql : sql.substring(0, end);
  }

  private static boolean isTerminator(char c) {
    return c == ';' || Character.isWhitespace(c);
  }
}
