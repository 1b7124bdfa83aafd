package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;

/**
 * How to reach one shard: its name, JDBC URL and credentials, an optional driver class, the
 * size of its connection pool, how long to wait for a connection and how long a statement may
 * run. Equal settings share one pool (see {@link ShardPools}).
 *
 * <p>{@link #toString()} masks the password, also where the URL carries one.
 *
 * @param connectTimeoutMillis how long a query waits for a connection before the shard counts
 *     as down; at least {@value #MIN_CONNECT_TIMEOUT_MILLIS} ms, HikariCP's minimum
 * @param statementTimeoutMillis the longest any statement may run on the shard, 0 for no limit
 * @param socketTimeoutMillis the longest the shard's driver waits for a byte from the shard,
 *     0 for no limit; set on PostgreSQL and MariaDB connections, whose drivers read it
 * @param tcpKeepAlive whether PostgreSQL and MariaDB connections send TCP keepalive probes
 * @param acquireTimeoutMillis how long a statement waits for a free connection of a pool whose
 *     connections are all in use before it fails with the shard's busy error
 * @param lockTimeoutMillis how long a statement waits for a row lock before the shard fails
 *     it (SQLState 55P03 from ShardSet), 0 for no limit, or {@link #BACKEND_LOCK_TIMEOUT} for
 *     the default: {@value #DEFAULT_LOCK_TIMEOUT_MILLIS} ms on PostgreSQL and MariaDB, H2's
 *     own (about 2 s: H2 cannot interrupt a lock wait otherwise, so its timeout is what ends a
 *     deadlock across H2 shards)
 */
public record ShardConnectionSettings(String shardName, String jdbcUrl, @Nullable String user,
    @Nullable String password, @Nullable String driverClass, int maxPoolSize,
    long connectTimeoutMillis, long statementTimeoutMillis, long socketTimeoutMillis,
    boolean tcpKeepAlive, long acquireTimeoutMillis, long lockTimeoutMillis) {
  /** Pool size when none is given. */
  public static final int DEFAULT_MAX_POOL_SIZE = 8;
  /** Connect timeout when none is given. */
  public static final long DEFAULT_CONNECT_TIMEOUT_MILLIS = 10_000;
  /** The shortest connect timeout HikariCP accepts. */
  public static final long MIN_CONNECT_TIMEOUT_MILLIS = 250;
  /** Socket timeout when none is given: a shard silent for this long counts as gone. */
  public static final long DEFAULT_SOCKET_TIMEOUT_MILLIS = 300_000;
  /** How long a statement waits for a busy pool when nothing else is given. */
  public static final long DEFAULT_ACQUIRE_TIMEOUT_MILLIS = 30_000;

  /** {@link #lockTimeoutMillis} that leaves the default. */
  public static final long BACKEND_LOCK_TIMEOUT = -1;
  /** The lock timeout on PostgreSQL and MariaDB when none is given. */
  public static final long DEFAULT_LOCK_TIMEOUT_MILLIS = 60_000;

  public ShardConnectionSettings {
    Objects.requireNonNull(shardName, "shardName");
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    if (shardName.isEmpty()) {
      throw new IllegalArgumentException("shardName must not be empty");
    }
    if (maxPoolSize < 1) {
      throw new IllegalArgumentException("maxPoolSize of shard '" + shardName
          + "' must be at least 1, got " + maxPoolSize);
    }
    if (connectTimeoutMillis < 1) {
      throw new IllegalArgumentException("connectTimeoutMillis of shard '" + shardName
          + "' must be at least 1, got " + connectTimeoutMillis);
    }
    if (statementTimeoutMillis < 0) {
      throw new IllegalArgumentException("statementTimeoutMillis of shard '" + shardName
          + "' must not be negative, got " + statementTimeoutMillis);
    }
    if (socketTimeoutMillis < 0) {
      throw new IllegalArgumentException("socketTimeoutMillis of shard '" + shardName
          + "' must not be negative, got " + socketTimeoutMillis);
    }
    if (acquireTimeoutMillis < 1) {
      throw new IllegalArgumentException("acquireTimeoutMillis of shard '" + shardName
          + "' must be at least 1, got " + acquireTimeoutMillis);
    }
    if (lockTimeoutMillis < BACKEND_LOCK_TIMEOUT) {
      throw new IllegalArgumentException("lockTimeoutMillis of shard '" + shardName
          + "' must not be negative, got " + lockTimeoutMillis);
    }
  }

  /** Creates settings with the default lock timeout. */
  public ShardConnectionSettings(String shardName, String jdbcUrl, @Nullable String user,
      @Nullable String password, @Nullable String driverClass, int maxPoolSize,
      long connectTimeoutMillis, long statementTimeoutMillis, long socketTimeoutMillis,
      boolean tcpKeepAlive, long acquireTimeoutMillis) {
    this(shardName, jdbcUrl, user, password, driverClass, maxPoolSize, connectTimeoutMillis,
        statementTimeoutMillis, socketTimeoutMillis, tcpKeepAlive, acquireTimeoutMillis,
        BACKEND_LOCK_TIMEOUT);
  }

  /** Creates settings with the default socket, keepalive and pool wait settings. */
  public ShardConnectionSettings(String shardName, String jdbcUrl, @Nullable String user,
      @Nullable String password, @Nullable String driverClass, int maxPoolSize,
      long connectTimeoutMillis, long statementTimeoutMillis) {
    this(shardName, jdbcUrl, user, password, driverClass, maxPoolSize, connectTimeoutMillis,
        statementTimeoutMillis, DEFAULT_SOCKET_TIMEOUT_MILLIS, true,
        DEFAULT_ACQUIRE_TIMEOUT_MILLIS);
  }

  /** Creates settings with the default timeouts and no statement timeout. */
  public ShardConnectionSettings(String shardName, String jdbcUrl, @Nullable String user,
      @Nullable String password, @Nullable String driverClass, int maxPoolSize) {
    this(shardName, jdbcUrl, user, password, driverClass, maxPoolSize,
        DEFAULT_CONNECT_TIMEOUT_MILLIS, 0);
  }

  /** Creates settings with the default pool size, {@value #DEFAULT_MAX_POOL_SIZE}. */
  public ShardConnectionSettings(String shardName, String jdbcUrl, @Nullable String user,
      @Nullable String password, @Nullable String driverClass) {
    this(shardName, jdbcUrl, user, password, driverClass, DEFAULT_MAX_POOL_SIZE);
  }

  @Override public String toString() {
    return "ShardConnectionSettings[shardName=" + shardName
        + ", jdbcUrl=" + Secrets.maskUrl(jdbcUrl)
        + ", user=" + user
        + ", password=" + (password == null ? "null" : Secrets.MASK)
        + ", driverClass=" + driverClass
        + ", maxPoolSize=" + maxPoolSize
        + ", connectTimeoutMillis=" + connectTimeoutMillis
        + ", statementTimeoutMillis=" + statementTimeoutMillis
        + ", socketTimeoutMillis=" + socketTimeoutMillis
        + ", tcpKeepAlive=" + tcpKeepAlive
        + ", acquireTimeoutMillis=" + acquireTimeoutMillis
        + ", lockTimeoutMillis=" + lockTimeoutMillis + "]";
  }
}
