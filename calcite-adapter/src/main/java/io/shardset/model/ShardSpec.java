package io.shardset.model;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One shard of a model: a JDBC database and the shardspace it belongs to.
 *
 * @param name the shard's unique name
 * @param jdbcUrl the JDBC URL
 * @param jdbcUser the user, or null
 * @param jdbcPassword the password, or null; never shown by {@link #toString()}
 * @param jdbcDriver the driver class name, or null to let {@link java.sql.DriverManager} find it
 * @param jdbcCatalog the catalog holding the tables, or null
 * @param jdbcSchema the schema holding the tables, or null
 * @param shardspace the shardspace; {@code "default"} unless the model says otherwise
 * @param poolSize the most connections the shard's pool holds
 * @param connectTimeoutMillis how long a query waits for a connection to the shard
 * @param statementTimeoutMillis the longest a shard statement may run, 0 for no limit
 * @param socketTimeoutMillis the longest the shard's driver waits for a byte, 0 for no limit
 * @param tcpKeepAlive whether connections to the shard send TCP keepalive probes
 * @param acquireTimeoutMillis how long a statement waits for a connection of the shard's pool
 *     when all are in use
 * @param lockTimeoutMillis how long a statement on the shard waits for a row lock before it
 *     fails, 0 for no limit, {@value #DEFAULT_LOCK_TIMEOUT} when the model sets none (see
 *     {@code ShardConnectionSettings})
 */
public record ShardSpec(String name, String jdbcUrl, String jdbcUser, String jdbcPassword,
    String jdbcDriver, String jdbcCatalog, String jdbcSchema, String shardspace, int poolSize,
    int connectTimeoutMillis, int statementTimeoutMillis, int socketTimeoutMillis,
    boolean tcpKeepAlive, int acquireTimeoutMillis, int lockTimeoutMillis) {
  /** The shardspace of shards whose model names none. */
  public static final String DEFAULT_SHARDSPACE = "default";
  /** {@link #poolSize} when the model gives none. */
  public static final int DEFAULT_POOL_SIZE = 8;
  /** {@link #connectTimeoutMillis} when the model gives none. */
  public static final int DEFAULT_CONNECT_TIMEOUT_MILLIS = 10_000;
  /** {@link #socketTimeoutMillis} when the model gives none. */
  public static final int DEFAULT_SOCKET_TIMEOUT_MILLIS = 300_000;
  /** {@link #acquireTimeoutMillis} when the model gives none. */
  public static final int DEFAULT_ACQUIRE_TIMEOUT_MILLIS = 30_000;

  /** {@link #lockTimeoutMillis} when the model gives none: each backend's own rule. */
  public static final int DEFAULT_LOCK_TIMEOUT = -1;

  private static final Pattern URL_PASSWORD =
      Pattern.compile("(?i)(password=)[^&;]*");

  public ShardSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(shardspace, "shardspace");
    if (poolSize < 1 || connectTimeoutMillis < 1 || statementTimeoutMillis < 0) {
      throw new IllegalArgumentException("shard '" + name + "': poolSize " + poolSize
          + " and connectTimeout " + connectTimeoutMillis + " must be positive, statementTimeout "
          + statementTimeoutMillis + " must not be negative");
    }
    if (socketTimeoutMillis < 0 || acquireTimeoutMillis < 1) {
      throw new IllegalArgumentException("shard '" + name + "': socketTimeout "
          + socketTimeoutMillis + " must not be negative, acquireTimeout " + acquireTimeoutMillis
          + " must be positive");
    }
    if (lockTimeoutMillis < DEFAULT_LOCK_TIMEOUT) {
      throw new IllegalArgumentException("shard '" + name + "': lockTimeout "
          + lockTimeoutMillis + " must not be negative");
    }
  }

  /** Creates a shard with the default lock timeout. */
  public ShardSpec(String name, String jdbcUrl, String jdbcUser, String jdbcPassword,
      String jdbcDriver, String jdbcCatalog, String jdbcSchema, String shardspace, int poolSize,
      int connectTimeoutMillis, int statementTimeoutMillis, int socketTimeoutMillis,
      boolean tcpKeepAlive, int acquireTimeoutMillis) {
    this(name, jdbcUrl, jdbcUser, jdbcPassword, jdbcDriver, jdbcCatalog, jdbcSchema, shardspace,
        poolSize, connectTimeoutMillis, statementTimeoutMillis, socketTimeoutMillis,
        tcpKeepAlive, acquireTimeoutMillis, DEFAULT_LOCK_TIMEOUT);
  }

  /** Creates a shard with the default socket timeout, keepalive and pool wait. */
  public ShardSpec(String name, String jdbcUrl, String jdbcUser, String jdbcPassword,
      String jdbcDriver, String jdbcCatalog, String jdbcSchema, String shardspace, int poolSize,
      int connectTimeoutMillis, int statementTimeoutMillis) {
    this(name, jdbcUrl, jdbcUser, jdbcPassword, jdbcDriver, jdbcCatalog, jdbcSchema, shardspace,
        poolSize, connectTimeoutMillis, statementTimeoutMillis, DEFAULT_SOCKET_TIMEOUT_MILLIS,
        true, DEFAULT_ACQUIRE_TIMEOUT_MILLIS);
  }

  /** Creates a shard with the default pool size and timeouts. */
  public ShardSpec(String name, String jdbcUrl, String jdbcUser, String jdbcPassword,
      String jdbcDriver, String jdbcCatalog, String jdbcSchema, String shardspace) {
    this(name, jdbcUrl, jdbcUser, jdbcPassword, jdbcDriver, jdbcCatalog, jdbcSchema, shardspace,
        DEFAULT_POOL_SIZE, DEFAULT_CONNECT_TIMEOUT_MILLIS, 0);
  }

  /** Describes the shard without its password, also hiding one written into the URL. */
  @Override public String toString() {
    return "ShardSpec[name=" + name
        + ", jdbcUrl=" + URL_PASSWORD.matcher(jdbcUrl).replaceAll("$1***")
        + ", jdbcUser=" + jdbcUser
        + ", jdbcPassword=" + (jdbcPassword == null ? null : "***")
        + ", jdbcDriver=" + jdbcDriver
        + ", jdbcCatalog=" + jdbcCatalog
        + ", jdbcSchema=" + jdbcSchema
        + ", shardspace=" + shardspace
        + ", poolSize=" + poolSize
        + ", connectTimeoutMillis=" + connectTimeoutMillis
        + ", statementTimeoutMillis=" + statementTimeoutMillis
        + ", socketTimeoutMillis=" + socketTimeoutMillis
        + ", tcpKeepAlive=" + tcpKeepAlive
        + ", acquireTimeoutMillis=" + acquireTimeoutMillis
        + ", lockTimeoutMillis=" + lockTimeoutMillis + "]";
  }
}
