package io.shardset.cli.server.pg;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The statements of a simple Query message: PostgreSQL's clients send several statements in
 * one text (psql's {@code -c "BEGIN; UPDATE ...; COMMIT"}, a script), separated by
 * semicolons, and the server runs them one after the other. A semicolon separates only outside
 * what PostgreSQL's lexer reads as one token or comment: a string ({@code '...'} with
 * {@code ''} inside; {@code E'...'} with backslash escapes too), a quoted identifier
 * ({@code "..."}), a dollar-quoted string ({@code $tag$...$tag$}, where {@code $1} is a
 * parameter and no quote), a line comment ({@code --}) or a block comment, which nests.
 * Statements with nothing but blanks and comments are left out, as PostgreSQL answers them
 * with nothing; a text without any is the empty query. An unterminated quote or comment runs to
 * the end of the text, whose statement then fails in the parser, which says where.
 */
public final class SimpleQueryText {
  private SimpleQueryText() {
  }

  /** The statements of a Query message's text, in order, each without its semicolon. */
  public static List<String> statements(String text) {
    final List<String> statements = new ArrayList<>();
    int start = 0;
    boolean content = false;
    int i = 0;
    while (i < text.length()) {
      final char c = text.charAt(i);
      if (c == ';') {
        if (content) {
          statements.add(text.substring(start, i).strip());
        }
        start = i + 1;
        content = false;
        i++;
        continue;
      }
      if (!Character.isWhitespace(c) && !comment(text, i)) {
        content = true;
      }
      i = tokenEnd(text, i);
    }
    if (content) {
      statements.add(text.substring(start).strip());
    }
    return statements;
  }

  /**
   * A statement with PostgreSQL's parameters ({@code $1}, {@code $2}, ...) as JDBC's
   * {@code ?} markers, outside strings, quoted identifiers and comments.
   */
  public static JdbcText jdbcText(String statement) {
    final StringBuilder text = new StringBuilder(statement.length());
    final List<Integer> numbers = new ArrayList<>();
    int i = 0;
    while (i < statement.length()) {
      final int end = tokenEnd(statement, i);
      if (statement.charAt(i) == '$' && end - i == 1 && i + 1 < statement.length()
          && Character.isDigit(statement.charAt(i + 1))) {
        int j = i + 1;
        while (j < statement.length() && Character.isDigit(statement.charAt(j))) {
          j++;
        }
        try {
          numbers.add(Integer.parseInt(statement.substring(i + 1, j)));
        } catch (NumberFormatException e) {
          numbers.add(Integer.MAX_VALUE);
        }
        text.append('?');
        i = j;
        continue;
      }
      text.append(statement, i, end);
      i = end;
    }
    return new JdbcText(text.toString(), numbers.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * A statement as JDBC takes it.
   *
   * @param sql the statement with {@code ?} markers
   * @param numbers for each marker in order, the number of the PostgreSQL parameter it was
   *     ({@code $2} gives 2)
   */
  public record JdbcText(String sql, int[] numbers) {
    /** The most parameters the statement refers to: its highest number. */
    public int parameterCount() {
      int count = 0;
      for (int number : numbers) {
        count = Math.max(count, number);
      }
      return count;
    }
  }

  /**
   * A statement whose strings cast with {@code ::} to a date, time, timestamp or numeric type
   * are written as the typed literals they stand for, as pgJDBC's simple protocol writes every
   * parameter so ({@code ('2024-01-01 +02'::date)}, {@code ('-12.99'::numeric)}): Calcite's
   * casts to {@code numeric} and {@code timestamp} without precision would drop a number's
   * fraction and a timestamp's milliseconds, which PostgreSQL's keep, and Calcite refuses the
   * zone offset that PostgreSQL ignores in a type without zone.
   */
  public static String typedLiterals(String statement) {
    if (!statement.contains("::")) {
      return statement;
    }
    final StringBuilder text = new StringBuilder(statement.length());
    int i = 0;
    while (i < statement.length()) {
      final int end = tokenEnd(statement, i);
      final String type = statement.charAt(i) == '\'' && end - i >= 2
          ? castType(statement, end) : "";
      final String value = type.isEmpty() ? "" : statement.substring(i + 1, end - 1);
      if ((type.equals("date") || type.equals("time") || type.equals("timestamp"))
          && value.indexOf('\'') < 0) {
        text.append(type.toUpperCase(Locale.ROOT)).append(" '")
            .append(PgParameters.withoutZone(value.trim())).append('\'');
        i = end + 2 + castTypeLength(statement, end);
      } else if (type.equals("regclass")) {
        // A catalog table's name as its identifier: the catalog's own tables are the only
        // ones clients name so, and they have no rows that point at them.
        text.append('(').append(PgCatalogModel.catalogTableOid(value)).append(')');
        i = end + 2 + castTypeLength(statement, end);
      } else if ((type.equals("numeric") || type.equals("decimal"))
          && NUMBER.matcher(value.trim()).matches()) {
        text.append('(').append(new BigDecimal(value.trim()).toPlainString()).append(')');
        i = end + 2 + castTypeLength(statement, end);
      } else {
        text.append(statement, i, end);
        i = end;
      }
    }
    return text.toString();
  }

  /** Whether {@code text} holds {@code word} in any case, without copying the text: the
   * session asks this of every statement. */
  static boolean containsIgnoreCase(String text, String word) {
    for (int i = 0; i + word.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, word, 0, word.length())) {
        return true;
      }
    }
    return false;
  }

  /**
   * A statement with a phrase replaced outside strings, quoted identifiers and comments. With
   * {@code unwrap}, the phrase opens a wrapping that {@code end} closes, and what it wraps is
   * kept: {@code OPERATOR(pg_catalog.~)} with phrase {@code OPERATOR(pg_catalog.} and end
   * {@code )} becomes {@code ~}; else the phrase is replaced by {@code end}.
   */
  static String replaceCode(String statement, String phrase, String end, boolean unwrap) {
    final StringBuilder text = new StringBuilder(statement.length());
    int i = 0;
    while (i < statement.length()) {
      if (statement.regionMatches(true, i, phrase, 0, phrase.length())) {
        if (!unwrap) {
          text.append(end);
          i += phrase.length();
          continue;
        }
        final int close = statement.indexOf(end, i + phrase.length());
        if (close > 0) {
          text.append(statement, i + phrase.length(), close);
          i = close + end.length();
          continue;
        }
      }
      final int tokenEnd = tokenEnd(statement, i);
      text.append(statement, i, tokenEnd);
      i = tokenEnd;
    }
    return text.toString();
  }

  /** A number PostgreSQL reads as numeric, written plainly it is an exact literal. */
  private static final Pattern NUMBER =
      Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d{1,4})?");

  /**
   * The type a {@code ::} cast right after {@code at} names, in lower case and without a
   * {@code pg_catalog.} qualifier; empty if none.
   */
  private static String castType(String text, int at) {
    if (!text.startsWith("::", at)) {
      return "";
    }
    final int length = castTypeLength(text, at);
    final int end = at + 2 + length;
    final String type = text.substring(at + 2, end).toLowerCase(Locale.ROOT);
    return end < text.length() && (text.charAt(end) == '(' || text.charAt(end) == '[')
        ? "" : type.startsWith(CATALOG) ? type.substring(CATALOG.length()) : type;
  }

  private static final String CATALOG = "pg_catalog.";

  /** The length of the type name after the {@code ::} at {@code at}, qualifier included. */
  private static int castTypeLength(String text, int at) {
    int end = at + 2;
    if (text.regionMatches(true, end, CATALOG, 0, CATALOG.length())) {
      end += CATALOG.length();
    }
    while (end < text.length() && identifierPart(text, end)) {
      end++;
    }
    return end - at - 2;
  }

  /** Where a comment starting at {@code i} ends, or {@code i} if none starts there. */
  static int commentEnd(String text, int i) {
    return comment(text, i) ? tokenEnd(text, i) : i;
  }

  private static boolean comment(String text, int i) {
    return text.startsWith("--", i) || text.startsWith("/*", i);
  }

  /** Where the token or comment starting at {@code i} ends: a string, a quoted identifier,
   * a dollar-quoted string, a comment, a word, or one character. */
  static int tokenEnd(String text, int i) {
    final char c = text.charAt(i);
    if (c == '-' && at(text, i + 1, '-')) {
      return lineEnd(text, i);
    } else if (c == '/' && at(text, i + 1, '*')) {
      return blockCommentEnd(text, i);
    } else if (c == '\'') {
      return quoteEnd(text, i, '\'', escapes(text, i));
    } else if (c == '"') {
      return quoteEnd(text, i, '"', false);
    } else if (c == '$' && !identifierPart(text, i - 1)) {
      return dollarQuoteEnd(text, i);
    } else if (identifierPart(text, i)) {
      // A whole word, so that a '$' inside one (an identifier may hold it) is no quote.
      int j = i;
      while (j < text.length() && (identifierPart(text, j) || text.charAt(j) == '$')) {
        j++;
      }
      return j;
    }
    return i + 1;
  }

  /** Whether the string starting at {@code quote} is an {@code E'...'} string. */
  private static boolean escapes(String text, int quote) {
    return quote > 0 && (text.charAt(quote - 1) == 'E' || text.charAt(quote - 1) == 'e')
        && !identifierPart(text, quote - 2);
  }

  /** Where a quoted string or identifier opened at {@code open} ends (after its quote). */
  private static int quoteEnd(String text, int open, char quote, boolean backslashes) {
    int i = open + 1;
    while (i < text.length()) {
      final char c = text.charAt(i);
      if (backslashes && c == '\\') {
        i += 2;
      } else if (c == quote) {
        if (at(text, i + 1, quote)) {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return text.length();
  }

  /** Where a dollar-quoted string opened at {@code dollar} ends; after {@code $} if none. */
  private static int dollarQuoteEnd(String text, int dollar) {
    int i = dollar + 1;
    if (i < text.length() && Character.isDigit(text.charAt(i))) {
      return i; // $1: a parameter
    }
    while (i < text.length() && identifierPart(text, i)) {
      i++;
    }
    if (!at(text, i, '$')) {
      return dollar + 1;
    }
    final String tag = text.substring(dollar, i + 1);
    final int close = text.indexOf(tag, i + 1);
    return close < 0 ? text.length() : close + tag.length();
  }

  private static int lineEnd(String text, int from) {
    final int newline = text.indexOf('\n', from);
    return newline < 0 ? text.length() : newline + 1;
  }

  /** Where a block comment opened at {@code open} ends: comments nest, as in PostgreSQL. */
  private static int blockCommentEnd(String text, int open) {
    int depth = 0;
    int i = open;
    while (i < text.length()) {
      if (text.startsWith("/*", i)) {
        depth++;
        i += 2;
      } else if (text.startsWith("*/", i)) {
        depth--;
        i += 2;
        if (depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    return text.length();
  }

  private static boolean at(String text, int index, char c) {
    return index < text.length() && text.charAt(index) == c;
  }

  private static boolean identifierPart(String text, int index) {
    if (index < 0 || index >= text.length()) {
      return false;
    }
    final char c = text.charAt(index);
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
