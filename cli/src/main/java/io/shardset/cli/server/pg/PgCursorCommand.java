package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cursor statement of SQL: {@code DECLARE name CURSOR [WITH | WITHOUT HOLD] FOR query},
 * {@code FETCH [NEXT | FORWARD [n | ALL] | n | ALL] [FROM | IN] name}, {@code MOVE} likewise,
 * and {@code CLOSE name | ALL}: what psycopg2's named cursors and psql's {@code FETCH_COUNT}
 * send. Cursors go forward only; {@code SCROLL} and backward moves are refused.
 *
 * @param kind which statement
 * @param name the cursor's name, as PostgreSQL folds it; null for {@code CLOSE ALL}
 * @param count for FETCH and MOVE, the most rows to take; 0 for all of them
 * @param hold for DECLARE, whether the cursor outlives its transaction
 * @param query for DECLARE, the query whose rows the cursor gives
 */
record PgCursorCommand(Kind kind, @Nullable String name, long count, boolean hold,
    @Nullable String query) {
  /** Which cursor statement. */
  enum Kind { DECLARE, FETCH, MOVE, CLOSE }

  private static final Pattern DECLARE = Pattern.compile("(?is)\\s*declare\\s+"
      + PgNames.NAME
      + "((?:\\s+(?:binary|asensitive|insensitive|no\\s+scroll|scroll))*)\\s+cursor"
      + "(?:\\s+(with|without)\\s+hold)?\\s+for\\s+(.+?)\\s*;?\\s*");
  private static final Pattern FETCH = Pattern.compile("(?is)\\s*(fetch|move)"
      + "(?:\\s+(next|forward(?:\\s+(?:all|\\d+))?|all|\\d+|"
      + "prior|first|last|absolute\\s+-?\\d+|relative\\s+-?\\d+|backward(?:\\s+(?:all|\\d+))?"
      + "|-\\d+))?(?:\\s+(?:from|in))?\\s+" + PgNames.NAME + "\\s*;?\\s*");
  /** SCROLL among a DECLARE's options, not as NO SCROLL. */
  private static final Pattern SCROLL = Pattern.compile("(?i)(?<!no\\s{1,9})\\bscroll\\b");
  private static final Pattern SPACES = Pattern.compile("\\s+");
  private static final Pattern DIGITS = Pattern.compile("\\d+");
  private static final Pattern CLOSE = Pattern.compile("(?is)\\s*close\\s+"
      + PgNames.NAME
      + "\\s*;?\\s*");

  PgCursorCommand {
    Objects.requireNonNull(kind, "kind");
  }

  /**
   * The cursor statement {@code command} is.
   *
   * @throws PgProtocolException (0A000) for a scrollable cursor or a backward move, (42601)
   *     for a cursor statement that does not parse
   */
  static PgCursorCommand parse(String command) {
    Matcher m = DECLARE.matcher(command);
    if (m.matches()) {
      if (SCROLL.matcher(m.group(2)).find()) {
        throw new PgProtocolException("0A000", "scrollable cursors are not supported");
      }
      return new PgCursorCommand(Kind.DECLARE, PgNames.fold(m.group(1)), 0,
          "with".equalsIgnoreCase(m.group(3)), m.group(4));
    }
    m = FETCH.matcher(command);
    if (m.matches()) {
      final Kind kind = m.group(1).equalsIgnoreCase("fetch") ? Kind.FETCH : Kind.MOVE;
      return new PgCursorCommand(kind, PgNames.fold(m.group(3)), count(m.group(2)), false,
          null);
    }
    m = CLOSE.matcher(command);
    if (m.matches()) {
      final boolean all = m.group(1).equalsIgnoreCase("all");
      return new PgCursorCommand(Kind.CLOSE, all ? null : PgNames.fold(m.group(1)), 0, false,
          null);
    }
    throw new PgProtocolException("42601", "syntax error in cursor statement");
  }

  /** How many rows a direction takes, forward: 1 when none is given; 0 for ALL. */
  private static long count(@Nullable String direction) {
    if (direction == null) {
      return 1;
    }
    final String d = SPACES.matcher(direction.toLowerCase(Locale.ROOT)).replaceAll(" ");
    if (d.equals("next") || d.equals("forward")) {
      return 1;
    }
    if (d.equals("all") || d.equals("forward all")) {
      return 0;
    }
    final String number = d.startsWith("forward ") ? d.substring("forward ".length()) : d;
    if (DIGITS.matcher(number).matches()) {
      final long count = Long.parseLong(number);
      if (count > 0) {
        return count;
      }
    }
    throw new PgProtocolException("0A000",
        "cursors go forward only: FETCH " + direction.toUpperCase(Locale.ROOT)
            + " is not supported");
  }

}
