package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The session settings every pooled connection to a shard starts with, so that shards read
 * the SQL ShardSet sends as the standard does, and bound how long a statement waits for a
 * row lock.
 *
 * <p>MariaDB and MySQL by default read a backslash in a string literal as an escape (so
 * {@code '\''} does not end where the standard says) and {@code ||} as a logical OR. Their
 * sessions get {@code NO_BACKSLASH_ESCAPES} and {@code PIPES_AS_CONCAT} added to whatever
 * {@code sql_mode} the server gives them. {@code ANSI_QUOTES} is not added: identifiers are
 * quoted with backticks.
 *
 * <p>The lock timeout ({@link #lockTimeoutSql}) is set by one statement when a connection is
 * first handed out, by the database's product name rather than the JDBC URL, so that it
 * holds whatever driver or proxy the URL names.
 */
final class ShardSessions {
  /** Adds the two modes to the session's own, keeping the rest. */
  static final String MARIADB_INIT_SQL = "SET SESSION sql_mode = CONCAT_WS(',',"
      + " NULLIF(@@SESSION.sql_mode, ''), 'NO_BACKSLASH_ESCAPES', 'PIPES_AS_CONCAT')";
  /** MariaDB's longest lock wait, in seconds: what "no limit" is there. */
  private static final long MARIADB_NO_LIMIT_SECONDS = 1_073_741_824L;

  private ShardSessions() {
  }

  /** The statement a new connection to this URL runs first, or null if it needs none. */
  static @Nullable String initSql(String jdbcUrl) {
    return jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")
        ? MARIADB_INIT_SQL : null;
  }

  /**
   * The statement that gives a connection to a database of this product its lock timeout,
   * or null when the connection keeps its own.
   *
   * @param lockTimeoutMillis see {@link ShardConnectionSettings#lockTimeoutMillis()}
   */
  static @Nullable String lockTimeoutSql(@Nullable String product, long lockTimeoutMillis) {
    final boolean unset = lockTimeoutMillis == ShardConnectionSettings.BACKEND_LOCK_TIMEOUT;
    final long millis = unset ? ShardConnectionSettings.DEFAULT_LOCK_TIMEOUT_MILLIS
        : lockTimeoutMillis;
    final String name = product == null ? "" : product.trim();
    if (name.equalsIgnoreCase("PostgreSQL")) {
      return "SET lock_timeout = " + millis;
    }
    if (name.equalsIgnoreCase("MariaDB") || name.equalsIgnoreCase("MySQL")) {
      final long seconds = millis == 0 ? MARIADB_NO_LIMIT_SECONDS
          : Math.max(1, (millis + 999) / 1000);
      return "SET SESSION innodb_lock_wait_timeout = " + seconds;
    }
    if (name.equalsIgnoreCase("H2") && !unset) {
      return "SET LOCK_TIMEOUT " + (millis == 0 ? Integer.MAX_VALUE
          : Math.min(millis, Integer.MAX_VALUE));
    }
    return null;
  }
}
