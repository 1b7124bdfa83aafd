package io.shardset.session;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The savepoint statements of SQL, which a session runs itself: {@code SAVEPOINT name},
 * {@code ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name} and
 * {@code RELEASE [SAVEPOINT] name}. They reach ShardSet as statement text from clients that
 * have no JDBC savepoint call to make (the remote drivers, SQL tools). A name is an
 * identifier: unquoted it is read in upper case, double-quoted as written.
 *
 * @param kind what the statement does
 * @param name the savepoint's name
 */
public record SavepointStatement(Kind kind, String name) {
  /** What a savepoint statement does. */
  public enum Kind { SET, ROLLBACK_TO, RELEASE }

  private static final String NAME = "(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)";
  private static final String END = "\\s*;?\\s*";
  private static final Pattern SET = Pattern.compile("(?i)\\s*SAVEPOINT\\s+" + NAME + END);
  private static final Pattern ROLLBACK_TO = Pattern.compile(
      "(?i)\\s*ROLLBACK(?:\\s+(?:WORK|TRANSACTION))?\\s+TO\\s+(?:SAVEPOINT\\s+)?" + NAME + END);
  private static final Pattern RELEASE = Pattern.compile(
      "(?i)\\s*RELEASE(?:\\s+SAVEPOINT)?\\s+" + NAME + END);

  /** The savepoint statement the text is, or null if it is none. */
  public static @Nullable SavepointStatement parse(String sql) {
    final String text = sql.strip();
    if (text.length() < 8) {
      return null;
    }
    final char first = Character.toUpperCase(text.charAt(0));
    if (first != 'S' && first != 'R') {
      return null;
    }
    for (Kind kind : Kind.values()) {
      final Matcher matcher = (kind == Kind.SET ? SET : kind == Kind.ROLLBACK_TO ? ROLLBACK_TO
          : RELEASE).matcher(text);
      if (matcher.matches()) {
        return new SavepointStatement(kind, name(matcher.group(1)));
      }
    }
    return null;
  }

  /** The statement's text for a savepoint of this name: {@code SAVEPOINT "name"}, say. */
  public static String text(Kind kind, String name) {
    final String quoted = "\"" + name.replace("\"", "\"\"") + "\"";
    return switch (kind) {
    case SET -> "SAVEPOINT " + quoted;
    case ROLLBACK_TO -> "ROLLBACK TO SAVEPOINT " + quoted;
    case RELEASE -> "RELEASE SAVEPOINT " + quoted;
    };
  }

  private static String name(String identifier) {
    return identifier.startsWith("\"")
        ? identifier.substring(1, identifier.length() - 1).replace("\"\"", "\"")
        : identifier.toUpperCase(Locale.ROOT);
  }

  /**
   * Runs the statement in the session.
   *
   * @throws SQLException as the session's savepoint calls do; a savepoint of no such name
   *     fails with {@value ShardSession#NO_SAVEPOINT_SQL_STATE}
   */
  public void run(ShardSession session) throws SQLException {
    if (kind == Kind.SET) {
      session.setSavepoint(name);
      return;
    }
    final SessionSavepoint savepoint = session.savepoint(name);
    if (savepoint == null) {
      throw new SQLException("savepoint \"" + name + "\" does not exist in this transaction",
          ShardSession.NO_SAVEPOINT_SQL_STATE);
    }
    if (kind == Kind.ROLLBACK_TO) {
      session.rollbackTo(savepoint);
    } else {
      session.releaseSavepoint(savepoint);
    }
  }
}
