package io.shardset.cli.server.pg;

import java.util.ArrayList;
import java.util.List;

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
      final int end;
      if (c == ';') {
        if (content) {
          statements.add(text.substring(start, i).strip());
        }
        start = i + 1;
        content = false;
        i++;
        continue;
      } else if (c == '-' && at(text, i + 1, '-')) {
        end = lineEnd(text, i);
      } else if (c == '/' && at(text, i + 1, '*')) {
        end = blockCommentEnd(text, i);
      } else {
        if (!Character.isWhitespace(c)) {
          content = true;
        }
        if (c == '\'') {
          end = quoteEnd(text, i, '\'', escapes(text, i));
        } else if (c == '"') {
          end = quoteEnd(text, i, '"', false);
        } else if (c == '$' && !identifierPart(text, i - 1)) {
          end = dollarQuoteEnd(text, i);
        } else if (identifierPart(text, i)) {
          // A whole word, so that a '$' inside one (an identifier may hold it) is no quote.
          int j = i;
          while (j < text.length() && (identifierPart(text, j) || text.charAt(j) == '$')) {
            j++;
          }
          end = j;
        } else {
          end = i + 1;
        }
      }
      i = end;
    }
    if (content) {
      statements.add(text.substring(start).strip());
    }
    return statements;
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
