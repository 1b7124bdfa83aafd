package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The session settings every pooled connection to a shard starts with, so that shards read
 * the SQL ShardSet sends as the standard does.
 *
 * <p>MariaDB and MySQL by default read a backslash in a string literal as an escape (so
 * {@code '\''} does not end where the standard says) and {@code ||} as a logical OR. Their
 * sessions get {@code NO_BACKSLASH_ESCAPES} and {@code PIPES_AS_CONCAT} added to whatever
 * {@code sql_mode} the server gives them. {@code ANSI_QUOTES} is not added: identifiers are
 * quoted with backticks.
 */
final class ShardSessions {
  /** Adds the two modes to the session's own, keeping the rest. */
  static final String MARIADB_INIT_SQL = "SET SESSION sql_mode = CONCAT_WS(',',"
      + " NULLIF(@@SESSION.sql_mode, ''), 'NO_BACKSLASH_ESCAPES', 'PIPES_AS_CONCAT')";

  private ShardSessions() {
  }

  /** The statement a new connection to this URL runs first, or null if it needs none. */
  static @Nullable String initSql(String jdbcUrl) {
    return jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")
        ? MARIADB_INIT_SQL : null;
  }
}
