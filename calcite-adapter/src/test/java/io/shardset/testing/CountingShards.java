package io.shardset.testing;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardPools;
import io.shardset.topology.RowEstimateReader;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Shards for tests whose JDBC traffic is counted, and can be made to fail, at the shard side.
 *
 * <p>Each shard is reached through a {@link ShardPools} pool, wrapped in an endpoint whose
 * connections, statements and result sets are {@link Proxy proxies} that count what the code
 * under test does: statements executed (with their SQL, parameters and settings), statements and
 * connections open now, and the peak of statements open at once. {@link #failAfterRows} makes a
 * shard's result sets throw after a number of rows, as a shard failing mid-stream would.
 *
 * <pre>{@code
 * try (CountingShards shards = CountingShards.h2(4)) {
 *   shards.executeOnAll("create table t(id int)", "insert into t values 1, 2");
 *   ShardEndpoint s0 = shards.endpoint("s0");   // pass to the code under test
 *   ...
 *   assertEquals(0, shards.openStatements());
 * }
 * }</pre>
 */
public final class CountingShards implements AutoCloseable {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  /** One statement execution seen at a shard. */
  public record Execution(String sql, List<@Nullable Object> parameters, int fetchSize,
      int queryTimeoutSeconds, boolean autoCommit) {
  }

  /**
   * What is open at the shards at one moment, over all shards: statements, connections checked
   * out through counting endpoints, and connections checked out of the pools.
   */
  public record Open(int statements, int connections, int poolConnections) {
    public static final Open NOTHING = new Open(0, 0, 0);
  }

  private final Map<String, Shard> shards = new LinkedHashMap<>();
  private final boolean ownsDatabases;
  // Counters over all shards; guarded by this.
  private int totalOpenStatements;
  private int peakTotalOpenStatements;

  private CountingShards(List<ShardConnectionSettings> settings, boolean ownsDatabases) {
    for (ShardConnectionSettings s : settings) {
      if (shards.put(s.shardName(), new Shard(s)) != null) {
        throw new IllegalArgumentException("duplicate shard name '" + s.shardName() + "'");
      }
    }
    this.ownsDatabases = ownsDatabases;
  }

  /** Creates {@code count} new, empty H2 in-memory shards named {@code s0, s1, ...}. */
  public static CountingShards h2(int count) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      names.add("s" + i);
    }
    return h2(names);
  }

  /** Creates new, empty H2 in-memory shards with these names. */
  public static CountingShards h2(List<String> names) {
    List<ShardConnectionSettings> settings = new ArrayList<>();
    for (String name : names) {
      // The process id: see Backend, whose H2 names carry it for the same reason.
      String url = "jdbc:h2:mem:shardset_" + ProcessHandle.current().pid() + "_"
          + DATABASES.incrementAndGet() + "_" + name + ";DB_CLOSE_DELAY=-1";
      settings.add(new ShardConnectionSettings(name, url, "sa", "", null));
    }
    return new CountingShards(settings, true);
  }

  /** Wraps existing shards of any database; {@link #close()} leaves their data alone. */
  public static CountingShards of(List<ShardConnectionSettings> settings) {
    return new CountingShards(settings, false);
  }

  /** Returns the shard names, in creation order. */
  public List<String> names() {
    return List.copyOf(shards.keySet());
  }

  /** Returns the counting endpoint of a shard: what code under test should use. */
  public ShardEndpoint endpoint(String shard) {
    return shard(shard).counting;
  }

  /** Returns the counting endpoints of all shards, in creation order. */
  public List<ShardEndpoint> endpoints() {
    return shards.values().stream().map(s -> s.counting).toList();
  }

  /** Returns the uncounted {@link ShardPools} endpoint behind a shard. */
  public ShardEndpoint pooledEndpoint(String shard) {
    return shard(shard).pooled;
  }

  /** Returns the connection settings of a shard, e.g. to write a model naming it. */
  public ShardConnectionSettings settings(String shard) {
    return shard(shard).settings;
  }

  /** Runs statements on a shard, uncounted and in autocommit mode (set-up and checks). */
  public void execute(String shard, String... sqls) {
    Shard target = shard(shard);
    try (Connection connection = target.pooled.connect();
        Statement statement = connection.createStatement()) {
      for (String sql : sqls) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("set-up of shard '" + shard + "' failed: " + e.getMessage(),
          e);
    }
  }

  /** Runs statements on every shard, uncounted. */
  public void executeOnAll(String... sqls) {
    for (String shard : shards.keySet()) {
      execute(shard, sqls);
    }
  }

  /**
   * Makes every result set of a shard opened from now on throw an {@link SQLException} from
   * {@code next()} once it has returned {@code rows} rows.
   */
  public void failAfterRows(String shard, int rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("rows must not be negative, got " + rows);
    }
    shard(shard).failAfterRows = rows;
  }

  /**
   * Makes every result set of a shard opened from now on throw an {@link OutOfMemoryError}
   * from {@code next()} once it has returned {@code rows} rows: the process, not the shard,
   * fails.
   */
  public void outOfMemoryAfterRows(String shard, int rows) {
    failAfterRows(shard, rows);
    shard(shard).outOfMemory = true;
  }

  /** Returns the message of the failure that {@link #failAfterRows} injects. */
  public static String injectedFailureMessage(String shard, int rows) {
    return "injected failure on shard '" + shard + "' after " + rows + " rows";
  }

  /** Stops injecting failures on every shard. */
  public void clearFailures() {
    for (Shard shard : shards.values()) {
      shard.failAfterRows = -1;
      shard.outOfMemory = false;
    }
  }

  /** Returns the statements executed on a shard, oldest first. */
  public synchronized List<Execution> executions(String shard) {
    return List.copyOf(shard(shard).executions);
  }

  public synchronized int statementsExecuted(String shard) {
    return shard(shard).executions.size();
  }

  public synchronized int openStatements(String shard) {
    return shard(shard).openStatements;
  }

  public synchronized int openConnections(String shard) {
    return shard(shard).openConnections;
  }

  /** Returns how often the code under test asked a shard's connections for their
   * {@code DatabaseMetaData} since the last {@link #resetCounters()}. */
  public synchronized int metadataRequests(String shard) {
    return shard(shard).metadataRequests;
  }

  /** Returns how often the code under test asked any shard's connections for their
   * {@code DatabaseMetaData} since the last {@link #resetCounters()}. */
  public synchronized int metadataRequests() {
    return shards.values().stream().mapToInt(s -> s.metadataRequests).sum();
  }

  /** Returns the most statements open at once on a shard. */
  public synchronized int peakOpenStatements(String shard) {
    return shard(shard).peakOpenStatements;
  }

  /** Returns the rows the code under test read from a shard's result sets. */
  public long rowsRead(String shard) {
    return shard(shard).rowsRead.get();
  }

  /** Returns the rows read from all shards. */
  public long rowsRead() {
    return shards.values().stream().mapToLong(s -> s.rowsRead.get()).sum();
  }

  /** Returns the statements executed on all shards. */
  public synchronized int statementsExecuted() {
    return shards.values().stream().mapToInt(s -> s.executions.size()).sum();
  }

  /** Returns the statements open now on all shards. */
  public synchronized int openStatements() {
    return totalOpenStatements;
  }

  /** Returns the connections checked out through counting endpoints now, on all shards. */
  public synchronized int openConnections() {
    return shards.values().stream().mapToInt(s -> s.openConnections).sum();
  }

  /** Returns the most statements open at once, counted over all shards together. */
  public synchronized int peakOpenStatements() {
    return peakTotalOpenStatements;
  }

  /** Returns the connections checked out of the shards' pools now, counted by the pools. */
  public int poolActiveConnections() {
    return shards.values().stream().mapToInt(s -> ShardPools.activeConnections(s.pooled)).sum();
  }

  /** Returns what is open at the shards now. */
  public Open openNow() {
    int statements;
    int connections;
    synchronized (this) {
      statements = openStatements();
      connections = openConnections();
    }
    return new Open(statements, connections, poolActiveConnections());
  }

  /** Forgets executions, rows read and peaks; what is open now stays counted. */
  public synchronized void resetCounters() {
    for (Shard shard : shards.values()) {
      shard.executions.clear();
      shard.rowsRead.set(0);
      shard.metadataRequests = 0;
      shard.peakOpenStatements = shard.openStatements;
    }
    peakTotalOpenStatements = totalOpenStatements;
  }

  /**
   * Waits until at least {@code count} statements are open at once over all shards; returns
   * false if that does not happen within the timeout.
   */
  public synchronized boolean awaitOpenStatements(int count, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (totalOpenStatements < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(left / 1_000_000L + 1);
    }
    return true;
  }

  /** Shuts the H2 databases that {@link #h2} created down. */
  @Override public void close() throws SQLException {
    if (!ownsDatabases) {
      return;
    }
    for (Shard shard : shards.values()) {
      try (Connection connection = DriverManager.getConnection(shard.settings.jdbcUrl(),
          shard.settings.user(), shard.settings.password());
          Statement statement = connection.createStatement()) {
        statement.execute("SHUTDOWN");
      }
    }
  }

  private Shard shard(String name) {
    Shard shard = shards.get(Objects.requireNonNull(name, "name"));
    if (shard == null) {
      throw new IllegalArgumentException("unknown shard '" + name + "'; shards are " + names());
    }
    return shard;
  }

  private synchronized void connectionOpened(Shard shard) {
    shard.openConnections++;
    notifyAll();
  }

  private synchronized void connectionClosed(Shard shard) {
    shard.openConnections--;
    notifyAll();
  }

  private synchronized void metadataRequested(Shard shard) {
    shard.metadataRequests++;
  }

  private synchronized void statementOpened(Shard shard) {
    shard.openStatements++;
    shard.peakOpenStatements = Math.max(shard.peakOpenStatements, shard.openStatements);
    totalOpenStatements++;
    peakTotalOpenStatements = Math.max(peakTotalOpenStatements, totalOpenStatements);
    notifyAll();
  }

  private synchronized void statementClosed(Shard shard) {
    shard.openStatements--;
    totalOpenStatements--;
    notifyAll();
  }

  /**
   * Records a statement a shard ran, but for the one statement a pool runs on each new
   * connection to give it its lock timeout, which belongs to no query.
   */
  private synchronized void executed(Shard shard, Execution execution) {
    if (SESSION_SET_UP.matcher(execution.sql()).matches()) {
      return;
    }
    shard.executions.add(execution);
    notifyAll();
  }

  /** The session set-up statements of ShardSet's pools ({@code ShardSessions}). */
  private static final Pattern SESSION_SET_UP = Pattern.compile(
      "SET (lock_timeout|SESSION innodb_lock_wait_timeout|LOCK_TIMEOUT) =? ?\\d+");

  /** One shard: its pool, its counting endpoint and its counters (guarded by the outer this). */
  private final class Shard {
    final ShardConnectionSettings settings;
    final ShardEndpoint pooled;
    final ShardEndpoint counting;
    final List<Execution> executions = new ArrayList<>();
    int openConnections;
    int metadataRequests;
    int openStatements;
    int peakOpenStatements;
    final AtomicLong rowsRead = new AtomicLong();
    volatile int failAfterRows = -1;
    volatile boolean outOfMemory;

    Shard(ShardConnectionSettings settings) {
      this.settings = settings;
      this.pooled = TestPools.pools().endpoint(settings);
      this.counting = new CountingEndpoint(this);
    }
  }

  /** An endpoint whose connections count what is done with them. */
  private final class CountingEndpoint implements ShardEndpoint {
    private final Shard shard;

    CountingEndpoint(Shard shard) {
      this.shard = shard;
    }

    @Override public String name() {
      return shard.pooled.name();
    }

    @Override public Connection connect() throws SQLException {
      Connection connection = shard.pooled.connect();
      connectionOpened(shard);
      return proxy(Connection.class, new ConnectionHandler(shard, connection));
    }

    @Override public boolean streamsInTransactionOnly() {
      return shard.pooled.streamsInTransactionOnly();
    }

    @Override public String redact(String message) {
      return shard.pooled.redact(message);
    }

    @Override public String toString() {
      return "counting " + shard.pooled;
    }
  }

  /** Counts a connection's close and wraps the statements it creates. */
  private final class ConnectionHandler implements InvocationHandler {
    private final Shard shard;
    private final Connection target;
    private boolean closed;

    ConnectionHandler(Shard shard, Connection target) {
      this.shard = shard;
      this.target = target;
    }

    @Override public @Nullable Object invoke(Object proxy, Method method,
        @Nullable Object @Nullable [] args) throws Throwable {
      if (method.getName().equals("close")) {
        synchronized (this) {
          if (!closed) {
            closed = true;
            connectionClosed(shard);
          }
        }
        return call(target, method, args);
      }
      if (method.getName().equals("getMetaData")) {
        metadataRequested(shard);
      }
      Object result = call(target, method, args);
      if (result instanceof Statement && args != null && args.length > 0
          && args[0] instanceof String sql && sql.startsWith(RowEstimateReader.MARKER)) {
        // The planner's reads of the table statistics, not a query's statements: not counted,
        // as metadata requests are not.
        return result;
      }
      if (result instanceof Statement statement
          && Statement.class.isAssignableFrom(method.getReturnType())) {
        statementOpened(shard);
        String sql = args != null && args.length > 0 && args[0] instanceof String s ? s : null;
        return proxy(method.getReturnType(),
            new StatementHandler(shard, target, statement, sql));
      }
      return result;
    }
  }

  /** Records a statement's settings, parameters and executions, and wraps its result sets. */
  private final class StatementHandler implements InvocationHandler {
    private final Shard shard;
    private final Connection connection;
    private final Statement target;
    private final @Nullable String preparedSql;
    private final Map<Integer, @Nullable Object> parameters = new LinkedHashMap<>();
    private int fetchSize;
    private int queryTimeoutSeconds;
    private boolean closed;

    StatementHandler(Shard shard, Connection connection, Statement target,
        @Nullable String preparedSql) {
      this.shard = shard;
      this.connection = connection;
      this.target = target;
      this.preparedSql = preparedSql;
    }

    @Override public @Nullable Object invoke(Object proxy, Method method,
        @Nullable Object @Nullable [] args) throws Throwable {
      String name = method.getName();
      if (name.equals("close")) {
        synchronized (this) {
          if (!closed) {
            closed = true;
            statementClosed(shard);
          }
        }
      } else if (name.equals("setFetchSize")) {
        fetchSize = (Integer) Objects.requireNonNull(args)[0];
      } else if (name.equals("setQueryTimeout")) {
        queryTimeoutSeconds = (Integer) Objects.requireNonNull(args)[0];
      } else if (name.startsWith("set") && args != null && args.length >= 2
          && args[0] instanceof Integer index) {
        parameters.put(index, name.equals("setNull") ? null : args[1]);
      } else if (name.startsWith("execute")) {
        String sql = args != null && args.length > 0 && args[0] instanceof String s
            ? s : preparedSql;
        executed(shard, new Execution(String.valueOf(sql),
            Collections.unmodifiableList(new ArrayList<>(parameters.values())), fetchSize,
            queryTimeoutSeconds, connection.getAutoCommit()));
      }
      Object result = call(target, method, args);
      if (result instanceof ResultSet resultSet) {
        return proxy(ResultSet.class, new ResultSetHandler(shard, resultSet));
      }
      return result;
    }
  }

  /** Counts rows read and injects the failure {@link #failAfterRows} asks for. */
  private static final class ResultSetHandler implements InvocationHandler {
    private final Shard shard;
    private final ResultSet target;
    private final int failAfterRows;
    private final boolean outOfMemory;
    private int rows;

    ResultSetHandler(Shard shard, ResultSet target) {
      this.shard = shard;
      this.target = target;
      this.failAfterRows = shard.failAfterRows;
      this.outOfMemory = shard.outOfMemory;
    }

    @Override public @Nullable Object invoke(Object proxy, Method method,
        @Nullable Object @Nullable [] args) throws Throwable {
      if (method.getName().equals("next")) {
        if (failAfterRows >= 0 && rows == failAfterRows) {
          String message = injectedFailureMessage(shard.settings.shardName(), failAfterRows);
          if (outOfMemory) {
            throw new OutOfMemoryError(message);
          }
          throw new SQLException(message);
        }
        Object more = call(target, method, args);
        if (Boolean.TRUE.equals(more)) {
          rows++;
          shard.rowsRead.incrementAndGet();
        }
        return more;
      }
      return call(target, method, args);
    }
  }

  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return type.cast(Proxy.newProxyInstance(CountingShards.class.getClassLoader(),
        new Class<?>[] {type}, handler));
  }

  private static @Nullable Object call(Object target, Method method,
      @Nullable Object @Nullable [] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
