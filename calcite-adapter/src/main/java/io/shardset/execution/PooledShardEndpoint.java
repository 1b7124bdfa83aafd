package io.shardset.execution;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.ScheduledExecutorService;

/** A shard endpoint backed by its own HikariCP pool; created and owned by {@link ShardPools}. */
final class PooledShardEndpoint implements ShardEndpoint {
  private final String name;
  private final long statementTimeoutMillis;
  private final Secrets secrets;
  private final HikariDataSource dataSource;
  /** Learnt from the driver of the first connection; see {@link #streamsInTransactionOnly()}. */
  private volatile @Nullable Boolean streamsInTransactionOnly;

  private PooledShardEndpoint(String name, long statementTimeoutMillis, Secrets secrets,
      HikariDataSource dataSource) {
    this.name = name;
    this.statementTimeoutMillis = statementTimeoutMillis;
    this.secrets = secrets;
    this.dataSource = dataSource;
  }

  /** Creates the pool; no connection is opened until the first {@link #connect()}. */
  static PooledShardEndpoint create(ShardConnectionSettings settings,
      ScheduledExecutorService housekeeping) {
    Secrets secrets = Secrets.of(settings);
    try {
      return new PooledShardEndpoint(settings.shardName(), settings.statementTimeoutMillis(),
          secrets,
          new HikariDataSource(config(settings, housekeeping)));
    } catch (RuntimeException e) {
      // Hikari loads the driver eagerly; a wrong class or URL fails here, at connect time.
      throw new IllegalArgumentException("cannot create the connection pool of shard '"
          + settings.shardName() + "': " + secrets.redact(e.getMessage()),
          Secrets.redactChain(e, secrets::redact));
    }
  }

  private static HikariConfig config(ShardConnectionSettings settings,
      ScheduledExecutorService housekeeping) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("shardset-" + settings.shardName());
    config.setJdbcUrl(settings.jdbcUrl());
    if (settings.user() != null) {
      config.setUsername(settings.user());
    }
    if (settings.password() != null) {
      config.setPassword(settings.password());
    }
    if (settings.driverClass() != null) {
      config.setDriverClassName(settings.driverClass());
    }
    config.setMaximumPoolSize(settings.maxPoolSize());
    // No eager connections: a model may name hundreds of shards.
    config.setMinimumIdle(0);
    // A shard that is down must not break pool creation; its first query reports it.
    config.setInitializationFailTimeout(-1);
    config.setConnectionTimeout(Math.max(settings.connectTimeoutMillis(),
        ShardConnectionSettings.MIN_CONNECT_TIMEOUT_MILLIS));
    // Hikari derives the driver's login timeout from the connection timeout, in whole seconds;
    // validating a connection is bounded by it too.
    config.setValidationTimeout(Math.max(settings.connectTimeoutMillis(),
        ShardConnectionSettings.MIN_CONNECT_TIMEOUT_MILLIS));
    config.setScheduledExecutor(housekeeping);
    final String initSql = ShardSessions.initSql(settings.jdbcUrl());
    if (initSql != null) {
      config.setConnectionInitSql(initSql);
    }
    return config;
  }

  @Override public String name() {
    return name;
  }

  @Override public Connection connect() throws SQLException {
    try {
      Connection connection = dataSource.getConnection();
      if (streamsInTransactionOnly == null) {
        streamsInTransactionOnly = streamsInTransactionOnly(connection);
      }
      return connection;
    } catch (SQLTransientConnectionException e) {
      // The pool's timeout message only counts connections; the reason is in its cause.
      Throwable reason = e.getCause();
      if (reason == null || reason.getMessage() == null) {
        throw e;
      }
      throw new SQLTransientConnectionException(
          e.getMessage() + "; last connection failure: " + reason.getMessage(),
          e.getSQLState(), e.getErrorCode(), e);
    }
  }

  @Override public long statementTimeoutMillis() {
    return statementTimeoutMillis;
  }

  /** Known once a connection was made, which every statement does first. */
  @Override public boolean streamsInTransactionOnly() {
    return Boolean.TRUE.equals(streamsInTransactionOnly);
  }

  /**
   * PgJDBC ignores the fetch size in autocommit mode and reads the whole result; the driver, not
   * the database, decides, so the driver's name is what tells.
   */
  private static boolean streamsInTransactionOnly(Connection connection) throws SQLException {
    String driver = connection.getMetaData().getDriverName();
    return driver != null && driver.startsWith("PostgreSQL");
  }

  @Override public String redact(String message) {
    return secrets.redact(message);
  }

  /** Returns the number of connections currently checked out of this shard's pool. */
  int activeConnections() {
    HikariPoolMXBean pool = dataSource.getHikariPoolMXBean();
    return pool == null || dataSource.isClosed() ? 0 : pool.getActiveConnections();
  }

  void close() {
    dataSource.close();
  }

  @Override public String toString() {
    return "shard '" + name + "' (pool " + dataSource.getPoolName() + ")";
  }
}
