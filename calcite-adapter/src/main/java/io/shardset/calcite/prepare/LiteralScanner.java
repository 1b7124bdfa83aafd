package io.shardset.calcite.prepare;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds a statement's plain literals without parsing it: unsigned integers and quoted strings
 * without a prefix, outside comments and quoted identifiers. What is left, with each literal
 * replaced by a mark of its kind, is the statement's shape: statements of one shape parse to
 * the same tree but for those literals' values, which is what lets {@link LiteralTemplates}
 * parameterize a statement as the parsed one of its shape was.
 *
 * <p>The scan need not find every literal the parser would (a signed number, a decimal, a
 * typed or prefixed literal stay part of the shape or, split, a literal that must then keep
 * its value): a template only replaces the literals whose place matches exactly one the
 * parser replaced, and requires every other literal to be as it was.
 */
final class LiteralScanner {
  /** What stands in a shape for an integer and for a string. */
  private static final char INTEGER = '\u0000';
  private static final char STRING = '\u0001';

  private LiteralScanner() {
  }

  /**
   * A literal of a statement.
   *
   * @param start its first character's offset
   * @param end the offset after its last character
   * @param value its value: a {@link BigDecimal} for an integer, the unquoted text of a string
   */
  record Literal(int start, int end, Object value) {
  }

  /** A statement's shape and its literals, in text order. */
  record Scan(String shape, List<Literal> literals) {
    Scan {
      literals = List.copyOf(literals);
    }
  }

  /**
   * The shape and literals of a statement, or null for one this scanner leaves to the parser:
   * one with {@code ?} parameters, another quoting than double quotes, or an unterminated
   * quote or comment.
   */
  static @Nullable Scan scan(String sql) {
    final StringBuilder shape = new StringBuilder(sql.length());
    final List<Literal> literals = new ArrayList<>();
    final int n = sql.length();
    int i = 0;
    while (i < n) {
      final char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        final int end = quotedEnd(sql, i, c);
        if (end < 0) {
          return null;
        }
        if (c == '\'' && !(i > 0 && isWordPart(sql.charAt(i - 1)))) {
          literals.add(new Literal(i, end, sql.substring(i + 1, end - 1).replace("''", "'")));
          shape.append(STRING);
        } else {
          // A prefixed string (X'..', N'..', _UTF8'..') or a quoted identifier: shape, as is.
          shape.append(sql, i, end);
        }
        i = end;
      } else if (c == '`' || c == '[' || c == '?') {
        return null;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        final int end = sql.indexOf('\n', i);
        final int stop = end < 0 ? n : end;
        shape.append(sql, i, stop);
        i = stop;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        final int end = sql.indexOf("*/", i + 2);
        if (end < 0) {
          return null;
        }
        shape.append(sql, i, end + 2);
        i = end + 2;
      } else if (isDigit(c) && !(i > 0 && (isWordPart(sql.charAt(i - 1))
          || sql.charAt(i - 1) == '.'))) {
        int j = i;
        while (j < n && isDigit(sql.charAt(j))) {
          j++;
        }
        if (j < n && (isWordPart(sql.charAt(j)) || sql.charAt(j) == '.')) {
          // A decimal, an exponent, or digits that begin a word: shape, as is.
          while (j < n && (isWordPart(sql.charAt(j)) || sql.charAt(j) == '.')) {
            j++;
          }
          shape.append(sql, i, j);
        } else {
          literals.add(new Literal(i, j, new BigDecimal(sql.substring(i, j))));
          shape.append(INTEGER);
        }
        i = j;
      } else {
        shape.append(c);
        i++;
      }
    }
    return new Scan(shape.toString(), literals);
  }

  /** The offset after the quote that closes the one at {@code start}, doubled quotes being
   * part of the text; -1 if none does. */
  private static int quotedEnd(String sql, int start, char quote) {
    int from = start + 1;
    while (true) {
      final int close = sql.indexOf(quote, from);
      if (close < 0) {
        return -1;
      }
      if (close + 1 < sql.length() && sql.charAt(close + 1) == quote) {
        from = close + 2;
      } else {
        return close + 1;
      }
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
