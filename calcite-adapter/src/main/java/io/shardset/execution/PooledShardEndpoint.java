package io.shardset.execution;

import io.shardset.util.ForwardingConnection;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * A shard endpoint backed by its own HikariCP pool; created and owned by {@link ShardPools}.
 *
 * <p>Statements wait for a connection in one fair queue with a permit per pooled connection,
 * for at most the shard's acquire timeout, or until their scan stops; only a statement
 * holding a permit asks HikariCP, whose own wait (the connect timeout) is then spent on
 * opening a connection alone. So a pool that is merely busy is told apart from a shard that
 * cannot be reached.
 */
final class PooledShardEndpoint implements ShardEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(PooledShardEndpoint.class);

  private final String name;
  private final long statementTimeoutMillis;
  private final long acquireTimeoutMillis;
  private final int maxPoolSize;
  private final FairPermits permits;
  private final Secrets secrets;
  private final HikariDataSource dataSource;
  private final ShardMetrics metrics;
  /** Down from a failed connection until a probe connects again. */
  private final ShardHealth health;
  /** Schedules the probes of a shard that is down. */
  private final ScheduledExecutorService housekeeping;
  private final long lockTimeoutMillis;
  /**
   * Learnt from the first connection, once, under {@link #traitsLock}: connections made
   * together must not each ask the driver, nor one of them see the traits half set.
   */
  private volatile @Nullable DriverTraits traits;
  private final Object traitsLock = new Object();
  /** The physical connections given their lock timeout, by identity while they live. */
  private final Map<Connection, Boolean> setUp =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** How the monitoring pool is made, when first needed. */
  private final HikariConfig monitorConfig;
  /** Guards {@link #monitor}. */
  private final Object monitorLock = new Object();
  /** One connection outside the pool, for reading the shard's lock waits; made on first use. */
  private @Nullable HikariDataSource monitor;
  private boolean closed;

  private PooledShardEndpoint(ShardConnectionSettings settings, Secrets secrets,
      HikariDataSource dataSource, HikariConfig monitorConfig, ShardMetrics metrics,
      ScheduledExecutorService housekeeping) {
    this.name = settings.shardName();
    this.statementTimeoutMillis = settings.statementTimeoutMillis();
    this.lockTimeoutMillis = settings.lockTimeoutMillis();
    this.acquireTimeoutMillis = settings.acquireTimeoutMillis();
    this.maxPoolSize = settings.maxPoolSize();
    this.permits = new FairPermits(settings.maxPoolSize());
    this.secrets = secrets;
    this.dataSource = dataSource;
    this.metrics = metrics;
    this.monitorConfig = monitorConfig;
    this.housekeeping = housekeeping;
    this.health = new ShardHealth();
    metrics.watch(name, permits);
    metrics.watch(name, health);
  }

  /** Creates the pool; no connection is opened until the first {@link #connect()}. */
  static PooledShardEndpoint create(ShardConnectionSettings settings,
      ScheduledExecutorService housekeeping, ShardMetrics metrics) {
    Secrets secrets = Secrets.of(settings);
    try {
      HikariConfig config = config(settings, housekeeping);
      metrics.bind(config);
      HikariConfig monitorConfig = config(settings, housekeeping);
      monitorConfig.setPoolName(config.getPoolName() + "-monitor");
      monitorConfig.setMaximumPoolSize(1);
      return new PooledShardEndpoint(settings, secrets, new HikariDataSource(config),
          monitorConfig, metrics, housekeeping);
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
    // What ShardSet's sessions promise unless they ask for more, on every backend: MariaDB's
    // own default is REPEATABLE READ. Set once per connection; a transaction that asks for
    // another level has it reset when the connection comes back.
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
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
    networkProperties(settings, config);
    return config;
  }

  /**
   * Gives PostgreSQL and MariaDB connections a socket timeout and TCP keepalive, so that a
   * shard that stops answering (a network partition) fails a read instead of hanging it, and
   * bounds their connect and cancel requests by the connect timeout. Parameters in the JDBC URL
   * win over these.
   */
  private static void networkProperties(ShardConnectionSettings settings, HikariConfig config) {
    String url = settings.jdbcUrl().toLowerCase(Locale.ROOT);
    long connectSeconds = Math.max(1, (settings.connectTimeoutMillis() + 999) / 1000);
    if (url.startsWith("jdbc:postgresql:")) {
      // PgJDBC counts in whole seconds; 0 means no limit.
      config.addDataSourceProperty("socketTimeout",
          String.valueOf((settings.socketTimeoutMillis() + 999) / 1000));
      config.addDataSourceProperty("tcpKeepAlive", String.valueOf(settings.tcpKeepAlive()));
      config.addDataSourceProperty("connectTimeout", String.valueOf(connectSeconds));
      config.addDataSourceProperty("cancelSignalTimeout", String.valueOf(connectSeconds));
    } else if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
      config.addDataSourceProperty("socketTimeout",
          String.valueOf(settings.socketTimeoutMillis()));
      config.addDataSourceProperty("tcpKeepAlive", String.valueOf(settings.tcpKeepAlive()));
      config.addDataSourceProperty("connectTimeout",
          String.valueOf(settings.connectTimeoutMillis()));
    }
  }

  @Override public String name() {
    return name;
  }

  /**
   * Waits in the pool's fair queue for a connection, for at most the acquire timeout, and
   * returns it wrapped so that closing it gives the place in the queue back.
   *
   * @throws ShardBusyException if every connection stayed in use for the acquire timeout
   * @throws SQLTransientConnectionException (08001) at once while the shard is down
   *     ({@link ShardHealth}), and when a connection cannot be made, which makes it down
   */
  @Override public Connection connect() throws SQLException {
    return connect(() -> false);
  }

  @Override public Connection connect(BooleanSupplier stop) throws SQLException {
    health.checkUp();
    acquirePermit(stop);
    boolean handedOut = false;
    try {
      Connection connection = pooledConnection();
      handedOut = true;
      return Permitted.wrap(connection, permits);
    } finally {
      if (!handedOut) {
        permits.release();
      }
    }
  }

  private void acquirePermit(BooleanSupplier stop) throws SQLException {
    switch (permits.acquire(TimeUnit.MILLISECONDS.toNanos(acquireTimeoutMillis), stop)) {
    case GRANTED:
      return;
    case TIMED_OUT:
      throw new ShardBusyException(maxPoolSize, acquireTimeoutMillis, permits.waiting());
    default:
      throw new SQLTransientConnectionException("stopped waiting for a connection of shard '"
          + name + "': the statement no longer needs it");
    }
  }

  private Connection pooledConnection() throws SQLException {
    try {
      Connection connection = dataSource.getConnection();
      health.connected();
      try {
        setUp(connection, traits(connection));
      } catch (SQLException | RuntimeException e) {
        connection.close();
        throw e;
      }
      return connection;
    } catch (SQLTransientConnectionException e) {
      // With a permit held, the pool timed out making a connection: the shard is down.
      // The pool's timeout message only counts connections; the reason is in its cause.
      Throwable reason = e.getCause();
      final SQLTransientConnectionException failure = reason == null
          || reason.getMessage() == null ? e : new SQLTransientConnectionException(
              e.getMessage() + "; last connection failure: " + reason.getMessage(),
              e.getSQLState(), e.getErrorCode(), e);
      down(failure);
      throw failure;
    }
  }

  /** Takes the shard as down, probing it in the background from now on. */
  private void down(SQLException failure) {
    final long delay = health.connectFailed(redact(String.valueOf(failure.getMessage())));
    if (delay >= 0) {
      LOG.warn("shard '{}' is down: {}", name, redact(String.valueOf(failure.getMessage())));
      probeAfter(delay);
    }
  }

  /**
   * Tries to connect after {@code delayMillis}, on a thread of its own (an attempt may take
   * the connect timeout, which the housekeeping thread must not spend): the shard is up again
   * once it connects, else the next probe comes after a longer delay.
   */
  private void probeAfter(long delayMillis) {
    try {
      housekeeping.schedule(() -> {
        if (isClosed()) {
          return;
        }
        final Thread probe = new Thread(this::probe, "shardset-probe-" + name);
        probe.setDaemon(true);
        probe.start();
      }, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // The process is shutting down: nothing will ask the shard again.
      LOG.debug("shard '{}': no probe scheduled, the housekeeping thread has stopped", name);
    }
  }

  private void probe() {
    health.probing();
    try (Connection connection = dataSource.getConnection()) {
      health.connected();
      LOG.info("shard '{}' is up again", name);
    } catch (SQLException | RuntimeException e) {
      final long next = health.probeFailed(redact(String.valueOf(e.getMessage())));
      if (next >= 0 && !isClosed()) {
        probeAfter(next);
      }
    }
  }

  /** Whether the shard is taken as down now: its last attempt to connect failed. */
  boolean isDown() {
    return health.isDown();
  }

  /** The background attempts to connect to the shard begun so far. */
  long probes() {
    return health.probes();
  }

  /**
   * Gives a connection its lock timeout the first time the pool hands it out: one statement
   * per physical connection, none per transaction.
   */
  private void setUp(Connection connection, DriverTraits traits) throws SQLException {
    final String sql = traits.lockTimeoutSql();
    if (sql == null) {
      return;
    }
    final Connection physical = connection.unwrap(Connection.class);
    if (setUp.putIfAbsent(physical, Boolean.TRUE) != null) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException | RuntimeException e) {
      setUp.remove(physical);
      throw e;
    }
  }

  @Override public long statementTimeoutMillis() {
    return statementTimeoutMillis;
  }

  /**
   * A connection of a pool of one of its own, so that reading the shard's lock waits never
   * waits for the statements that fill the shard's pool (a deadlock may hold all of them).
   */
  @Override public Connection connectForMonitoring() throws SQLException {
    health.checkUp();
    final HikariDataSource pool;
    synchronized (monitorLock) {
      if (closed) {
        throw new SQLException("the pools of shard '" + name + "' are closed");
      }
      if (monitor == null) {
        monitor = new HikariDataSource(monitorConfig);
      }
      pool = monitor;
    }
    return pool.getConnection();
  }

  /** Known once a connection was made, which every statement does first. */
  @Override public boolean streamsInTransactionOnly() {
    final DriverTraits known = traits;
    return known != null && known.streamsInTransactionOnly();
  }

  private DriverTraits traits(Connection connection) throws SQLException {
    DriverTraits known = traits;
    if (known == null) {
      synchronized (traitsLock) {
        known = traits;
        if (known == null) {
          final DatabaseMetaData metaData = connection.getMetaData();
          known = new DriverTraits(streamsInTransactionOnly(metaData.getDriverName()),
              ShardSessions.lockTimeoutSql(metaData.getDatabaseProductName(),
                  lockTimeoutMillis));
          traits = known;
        }
      }
    }
    return known;
  }

  /**
   * PgJDBC ignores the fetch size in autocommit mode and reads the whole result; the driver, not
   * the database, decides, so the driver's name is what tells.
   */
  private static boolean streamsInTransactionOnly(@Nullable String driver) {
    return driver != null && driver.startsWith("PostgreSQL");
  }

  @Override public String redact(String message) {
    return secrets.redact(message);
  }

  /**
   * Closes the connection's socket at once and takes it out of the pool, without waiting for
   * the shard: a thread blocked reading from it fails, and the pool opens a new one.
   */
  @Override public void abandon(Connection connection, Executor signals) {
    Connection pooled = Permitted.pooled(connection);
    try {
      pooled.unwrap(Connection.class).abort(signals);
    } catch (SQLException | RuntimeException e) {
      LOG.debug("aborting a connection of shard '{}' failed: {}", name,
          redact(String.valueOf(e.getMessage())));
    }
    try {
      dataSource.evictConnection(pooled);
    } catch (RuntimeException e) {
      LOG.debug("evicting a connection of shard '{}' failed: {}", name,
          redact(String.valueOf(e.getMessage())));
    }
  }

  /**
   * Whether the shard answers now, without queueing behind the pool's statements: with a permit
   * free, a connection of the pool valid within {@code timeoutSeconds}; with none free, whether
   * the pool has connections checked out (statements that hold a permit but still wait for a
   * connection mean the shard gives none). A shard whose checked-out connections hang (a
   * network partition under load) still reads as answering until they fail.
   */
  @Override public boolean answers(int timeoutSeconds) {
    if (health.isDown()) {
      return false; // the probes tell when it is up again, without another wait here
    }
    if (permits.acquire(0, () -> false) != FairPermits.Outcome.GRANTED) {
      return activeConnections() > 0;
    }
    final Connection pooled;
    try {
      pooled = dataSource.getConnection();
    } catch (SQLException | RuntimeException e) {
      permits.release();
      return false;
    }
    try (Connection connection = Permitted.wrap(pooled, permits)) {
      return connection.isValid(timeoutSeconds);
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  /** Returns the number of connections currently checked out of this shard's pool. */
  int activeConnections() {
    HikariPoolMXBean pool = dataSource.getHikariPoolMXBean();
    return pool == null || dataSource.isClosed() ? 0 : pool.getActiveConnections();
  }

  /** Whether this shard's pool is closed. */
  boolean isClosed() {
    return dataSource.isClosed();
  }

  void close() {
    metrics.forget(name, permits);
    metrics.forget(name, health);
    final HikariDataSource monitoring;
    synchronized (monitorLock) {
      closed = true;
      monitoring = monitor;
      monitor = null;
    }
    if (monitoring != null) {
      monitoring.close();
    }
    dataSource.close();
  }

  @Override public String toString() {
    return "shard '" + name + "' (pool " + dataSource.getPoolName() + ")";
  }

  /** A pooled connection whose close also gives its permit back, once. */
  private static final class Permitted extends ForwardingConnection {
    private final FairPermits permits;
    private final AtomicBoolean released = new AtomicBoolean();

    private Permitted(Connection pooled, FairPermits permits) {
      super(pooled);
      this.permits = permits;
    }

    static Connection wrap(Connection pooled, FairPermits permits) {
      return new Permitted(pooled, permits);
    }

    /** The pool's own connection behind a connection {@link #wrap} returned. */
    static Connection pooled(Connection connection) {
      return connection instanceof Permitted permitted ? permitted.delegate : connection;
    }

    @Override public void close() throws SQLException {
      try {
        delegate.close();
      } finally {
        if (released.compareAndSet(false, true)) {
          permits.release();
        }
      }
    }
  }

  /**
   * What the shard's driver and database mean for every connection.
   *
   * @param streamsInTransactionOnly whether results stream only inside a transaction
   * @param lockTimeoutSql what gives a new connection its lock timeout; null for none
   */
  private record DriverTraits(boolean streamsInTransactionOnly,
      @Nullable String lockTimeoutSql) {
  }
}
