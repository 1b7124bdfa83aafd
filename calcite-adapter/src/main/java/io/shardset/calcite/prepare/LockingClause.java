package io.shardset.calcite.prepare;

import io.shardset.calcite.guard.StatementRefusedException;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The locking clause at the end of a query, which Calcite's parser does not read:
 * {@code FOR UPDATE}, {@code FOR NO KEY UPDATE}, {@code FOR SHARE}, {@code FOR KEY SHARE}
 * (each with {@code OF} tables, which ShardSet reads as all of them) and MariaDB's
 * {@code LOCK IN SHARE MODE}. The query is planned without it and its reads lock the rows they
 * read, exclusively, on every shard (H2 has no shared row lock), inside a transaction.
 * {@code NOWAIT} and {@code SKIP LOCKED} are refused: ShardSet cannot make every shard's wait
 * behave so alike.
 *
 * @param query the query without the clause
 */
record LockingClause(String query) {
  private static final Pattern SPACES = Pattern.compile("\\s+");
  private static final Pattern QUERY = Pattern.compile("(?is)\\s*(SELECT|WITH|\\()\\b?.*");
  private static final Pattern CLAUSE = Pattern.compile("(?is)(.*?)\\s+(?:FOR\\s+"
      + "(?:UPDATE|NO\\s+KEY\\s+UPDATE|SHARE|KEY\\s+SHARE)"
      + "(?:\\s+OF\\s+[\\w\"$.]+(?:\\s*,\\s*[\\w\"$.]+)*)?(\\s+NOWAIT|\\s+SKIP\\s+LOCKED)?"
      + "|LOCK\\s+IN\\s+SHARE\\s+MODE)\\s*;?\\s*");

  /**
   * The query's locking clause, or null when it has none.
   *
   * @throws StatementRefusedException (0A000) for {@code NOWAIT} or {@code SKIP LOCKED}
   */
  static @Nullable LockingClause of(String sql) {
    if (!QUERY.matcher(sql).matches()
        || !sql.toUpperCase(Locale.ROOT).contains(" FOR ")
        && !sql.toUpperCase(Locale.ROOT).contains(" LOCK ")) {
      return null;
    }
    final Matcher clause = CLAUSE.matcher(sql);
    if (!clause.matches()) {
      return null;
    }
    if (clause.group(2) != null) {
      throw new StatementRefusedException("a locking clause with "
          + SPACES.matcher(clause.group(2).strip().toUpperCase(Locale.ROOT)).replaceAll(" ")
          + " is not supported: the rows' shards would not wait alike; lock without it",
          "0A000");
    }
    return new LockingClause(clause.group(1));
  }
}
