package io.shardset.cli.server.pg;

import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The functions of PostgreSQL whose answer is the session's, written into a statement as
 * literals before it runs, outside strings and comments: {@code pg_backend_pid()} (the
 * session's process id, the one its cancel key names), {@code current_setting('name'
 * [, missing_ok])} (the setting as SHOW gives it) and {@code set_config('name', 'value',
 * is_local)} (sets it, as SET does, and gives the value). The catalog's functions are shared by
 * every session ({@link PgCatalogFunctions}), so these cannot be among them.
 */
final class PgSessionFunctions {
  private static final String TEXT = "'((?:[^']|'')*)'";
  private static final Pattern BACKEND_PID =
      Pattern.compile("(?i)(?:pg_catalog\\s*\\.\\s*)?pg_backend_pid\\s*\\(\\s*\\)");
  private static final Pattern CURRENT_SETTING = Pattern.compile(
      "(?i)(?:pg_catalog\\s*\\.\\s*)?current_setting\\s*\\(\\s*" + TEXT
          + "\\s*(?:,\\s*(true|false)\\s*)?\\)");
  private static final Pattern SET_CONFIG = Pattern.compile(
      "(?i)(?:pg_catalog\\s*\\.\\s*)?set_config\\s*\\(\\s*" + TEXT + "\\s*,\\s*" + TEXT
          + "\\s*,\\s*(true|false)\\s*\\)");

  private PgSessionFunctions() {
  }

  /**
   * The statement with the calls answered.
   *
   * @param set sets a setting, as {@code SET} does, for {@code set_config}
   * @throws PgProtocolException (42704) for {@code current_setting} of a setting there is none
   *     of, unless its {@code missing_ok} is true
   */
  static String rewrite(String sql, int processId, PgSettings settings,
      BiConsumer<String, String> set) {
    String text = sql;
    if (SimpleQueryText.containsIgnoreCase(sql, "pg_backend_pid")) {
      text = replace(text, BACKEND_PID, m -> Integer.toString(processId));
    }
    if (SimpleQueryText.containsIgnoreCase(sql, "set_config")) {
      text = replace(text, SET_CONFIG, m -> {
        final String name = unquote(m.group(1));
        set.accept(name, unquote(m.group(2)));
        return quote(settings.show(name));
      });
    }
    if (SimpleQueryText.containsIgnoreCase(sql, "current_setting")) {
      text = replace(text, CURRENT_SETTING, m -> {
        final String name = unquote(m.group(1));
        if ("true".equalsIgnoreCase(m.group(2)) && !settings.has(name)) {
          return "CAST(NULL AS VARCHAR)";
        }
        return quote(settings.show(name));
      });
    }
    return text;
  }

  /** A call's replacement. */
  @FunctionalInterface
  private interface Replacement {
    String of(Matcher call);
  }

  /** The text with each call the pattern matches at the start of a word of code replaced. */
  private static String replace(String sql, Pattern call, Replacement replacement) {
    final StringBuilder text = new StringBuilder(sql.length());
    final Matcher matcher = call.matcher(sql);
    int copied = 0;
    int i = 0;
    while (i < sql.length()) {
      final int end = SimpleQueryText.tokenEnd(sql, i);
      if (Character.isLetter(sql.charAt(i))
          && matcher.region(i, sql.length()).lookingAt()) {
        text.append(sql, copied, i).append(replacement.of(matcher));
        copied = matcher.end();
        i = copied;
        continue;
      }
      i = Math.max(i + 1, end);
    }
    return copied == 0 ? sql : text.append(sql, copied, sql.length()).toString();
  }

  private static String unquote(String text) {
    return text.replace("''", "'");
  }

  private static String quote(String value) {
    return "'" + value.replace("'", "''") + "'";
  }
}
