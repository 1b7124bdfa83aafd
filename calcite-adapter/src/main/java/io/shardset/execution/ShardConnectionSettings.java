package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;

/**
 * How to reach one shard: its name, JDBC URL and credentials, an optional driver class and the
 * size of its connection pool. Equal settings share one pool (see {@link ShardPools}).
 *
 * <p>{@link #toString()} masks the password, also where the URL carries one.
 */
public record ShardConnectionSettings(String shardName, String jdbcUrl, @Nullable String user,
    @Nullable String password, @Nullable String driverClass, int maxPoolSize) {
  /** Pool size when none is given. */
  public static final int DEFAULT_MAX_POOL_SIZE = 8;

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
        + ", maxPoolSize=" + maxPoolSize + "]";
  }
}
