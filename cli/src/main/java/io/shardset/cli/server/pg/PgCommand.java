package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What one statement a client sent is, from its first words: one the session answers itself
 * (transaction control, {@code SET}, {@code SHOW}, {@code DISCARD}), a query, a write, or
 * another statement, which runs as it is.
 *
 * @param kind what it is
 * @param text the statement
 * @param words its first words in lower case (up to {@value #WORDS})
 * @param setting for SET, SHOW and RESET, the setting's name in lower case; else null
 * @param value for SET, the value it is given, unquoted; else null
 */
record PgCommand(Kind kind, String text, List<String> words, @Nullable String setting,
    @Nullable String value) {
  /** How many words are read. */
  static final int WORDS = 4;

  /** What a statement is. */
  enum Kind {
    EMPTY, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, ROLLBACK_TO, SET, SHOW, RESET,
    DISCARD_ALL, QUERY, INSERT, UPDATE, DELETE, MERGE, COPY, CURSOR, PREPARED, OTHER
  }

  PgCommand {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(text, "text");
    words = List.copyOf(words);
  }

  /** What {@code text} is. */
  static PgCommand of(String text) {
    final List<String> words = words(text);
    final String first = words.isEmpty() ? "" : words.get(0);
    final String second = words.size() > 1 ? words.get(1) : "";
    switch (first) {
    case "":
      return simple(stripComments(text).isBlank() ? Kind.EMPTY : Kind.OTHER, text, words);
    case "begin":
    case "start":
      return simple(Kind.BEGIN, text, words);
    case "commit":
    case "end":
      return simple(Kind.COMMIT, text, words);
    case "rollback":
    case "abort":
      return simple(words.contains("to") ? Kind.ROLLBACK_TO : Kind.ROLLBACK, text, words);
    case "savepoint":
      return simple(Kind.SAVEPOINT, text, words);
    case "release":
      return simple(Kind.RELEASE, text, words);
    case "set":
      return set(text, words);
    case "show":
      return new PgCommand(Kind.SHOW, text, words,
          String.join(" ", words.subList(1, words.size())), null);
    case "reset":
      return new PgCommand(Kind.RESET, text, words, second, null);
    case "discard":
      return simple(Kind.DISCARD_ALL, text, words);
    case "select":
    case "with":
    case "values":
    case "table":
    case "explain":
      return simple(Kind.QUERY, text, words);
    case "insert":
    case "upsert":
      return simple(Kind.INSERT, text, words);
    case "update":
      return simple(Kind.UPDATE, text, words);
    case "delete":
      return simple(Kind.DELETE, text, words);
    case "merge":
      return simple(Kind.MERGE, text, words);
    case "copy":
      return simple(Kind.COPY, text, words);
    case "prepare":
    case "execute":
    case "deallocate":
      return simple(Kind.PREPARED, text, words);
    case "declare":
    case "fetch":
    case "move":
    case "close":
      return simple(Kind.CURSOR, text, words);
    default:
      return simple(Kind.OTHER, text, words);
    }
  }

  /** The name of a savepoint statement's savepoint, as PostgreSQL folds it. */
  String savepointName() {
    return words.get(words.size() - 1);
  }

  /** Whether the statement may return rows: a query, or a write with RETURNING. */
  boolean mayReturnRows() {
    return kind == Kind.QUERY || kind == Kind.SHOW
        || (kind == Kind.INSERT || kind == Kind.UPDATE || kind == Kind.DELETE)
        && text.toLowerCase(Locale.ROOT).contains("returning");
  }

  /** Whether the statement changes rows. */
  boolean writes() {
    return kind == Kind.INSERT || kind == Kind.UPDATE || kind == Kind.DELETE
        || kind == Kind.MERGE;
  }

  /** The CommandComplete tag of the statement, given the rows it returned or changed. */
  String tag(long rows) {
    switch (kind) {
    case QUERY:
      return words.get(0).equals("explain") ? "EXPLAIN" : "SELECT " + rows;
    case INSERT:
      return "INSERT 0 " + rows;
    case UPDATE:
      return "UPDATE " + rows;
    case DELETE:
      return "DELETE " + rows;
    case MERGE:
      return "MERGE " + rows;
    case COPY:
      return "COPY " + rows;
    case DISCARD_ALL:
      return "DISCARD ALL";
    case ROLLBACK_TO:
      return "ROLLBACK";
    default:
      return words.isEmpty() ? "" : words.get(0).toUpperCase(Locale.ROOT);
    }
  }

  private static PgCommand simple(Kind kind, String text, List<String> words) {
    return new PgCommand(kind, text, words, null, null);
  }

  /** {@code SET [SESSION | LOCAL] name {TO | =} value}, and {@code SET TIME ZONE value}. */
  private static PgCommand set(String text, List<String> words) {
    int at = 1;
    if (words.size() > at && (words.get(at).equals("session") || words.get(at).equals("local"))
        && !(words.size() > at + 1 && words.get(at + 1).equals("characteristics"))) {
      at++;
    }
    final String lower = text.toLowerCase(Locale.ROOT);
    if (words.size() > at + 1 && words.get(at).equals("time") && words.get(at + 1).equals("zone")) {
      final int zone = lower.indexOf("zone") + "zone".length();
      return new PgCommand(Kind.SET, text, words, "timezone", unquote(text.substring(zone)));
    }
    if (words.size() <= at) {
      return simple(Kind.OTHER, text, words);
    }
    final String name = words.get(at);
    final int nameAt = lower.indexOf(name, lower.indexOf("set") + 3);
    int valueAt = nameAt + name.length();
    while (valueAt < text.length() && Character.isWhitespace(text.charAt(valueAt))) {
      valueAt++;
    }
    if (text.startsWith("=", valueAt)) {
      valueAt++;
    } else if (lower.startsWith("to", valueAt)) {
      valueAt += 2;
    } else {
      // SET TRANSACTION ..., SET SESSION CHARACTERISTICS ...: taken, not kept.
      return new PgCommand(Kind.SET, text, words, name, null);
    }
    return new PgCommand(Kind.SET, text, words, name, unquote(text.substring(valueAt)));
  }

  private static String unquote(String value) {
    final String trimmed = value.trim();
    if (trimmed.length() >= 2 && trimmed.startsWith("'") && trimmed.endsWith("'")) {
      return trimmed.substring(1, trimmed.length() - 1).replace("''", "'");
    }
    return trimmed;
  }

  private static String stripComments(String text) {
    final StringBuilder code = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      final int skipped = SimpleQueryText.commentEnd(text, i);
      if (skipped > i) {
        i = skipped;
      } else {
        code.append(text.charAt(i++));
      }
    }
    return code.toString();
  }

  /** The first words of a statement, past comments and opening parentheses. */
  private static List<String> words(String text) {
    final List<String> words = new ArrayList<>();
    int i = 0;
    while (i < text.length() && words.size() < WORDS) {
      final int skipped = SimpleQueryText.commentEnd(text, i);
      if (skipped > i) {
        i = skipped;
        continue;
      }
      final char c = text.charAt(i);
      if (Character.isWhitespace(c) || c == '(' && words.isEmpty()) {
        i++;
      } else if (Character.isLetterOrDigit(c) || c == '_') {
        final int start = i;
        while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i))
            || text.charAt(i) == '_' || text.charAt(i) == '$')) {
          i++;
        }
        words.add(text.substring(start, i).toLowerCase(Locale.ROOT));
      } else if (c == '"') {
        final int close = text.indexOf('"', i + 1);
        words.add(close < 0 ? text.substring(i + 1) : text.substring(i + 1, close));
        i = close < 0 ? text.length() : close + 1;
      } else {
        break;
      }
    }
    return words;
  }

}
