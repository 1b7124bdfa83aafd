package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The rows of one shard request, read one at a time: a pooled connection, the executed statement
 * and its result set, all released by {@link #close()}.
 *
 * <p>Opening tries the request's own shard and, while no row has been read, its fallbacks in
 * turn (the copies of a duplicated table), so that an unreachable shard costs no rows.
 *
 * <p>Not thread-safe, except that the running statement may be canceled from another thread
 * through the {@link Registry} it was announced to.
 */
final class ShardCursor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShardCursor.class);

  /** Learns which statement runs, so that a scan can cancel or abandon it from another thread. */
  interface Registry {
    /** Records a statement as running; false if the scan closed and it must not run. */
    boolean register(RunningStatement statement);

    /** Forgets a statement before it is closed, so that it is never canceled afterwards. */
    void unregister(RunningStatement statement);

    /** Whether the scan stopped, so that a request still waiting for a connection gives up. */
    boolean stopped();
  }

  private final ShardEndpoint endpoint;
  private final RowReader rowReader;
  private final ScanOptions options;
  private final long deadlineNanos;
  private final long startedNanos;
  // A streaming cursor holds the connection, statement and result set until closed; one that
  // read every row at once holds only the rows.
  private final @Nullable Connection connection;
  private final boolean endTransaction;
  private final @Nullable RunningStatement statement;
  private final @Nullable ResultSet resultSet;
  private final @Nullable Registry registry;
  private final @Nullable Iterator<@Nullable Object[]> rows;
  /** Rows read ahead of the result set, returned first. */
  private @Nullable Iterator<@Nullable Object[]> head;
  private boolean closed;
  /** Rows the shard returned so far, for its meters. */
  private long rowsRead;
  /** Whether the statement's meters have it already. */
  private boolean recorded;
  /** How it ended, once recorded. */
  private ShardMetrics.Outcome recordedOutcome = ShardMetrics.Outcome.OK;
  /** The client statement's record of this shard statement, or null if none is tracked. */
  private @Nullable ShardRun shardRun;

  private ShardCursor(ShardRequest request, RowReader rowReader, ScanOptions options,
      long deadlineNanos, long startedNanos, @Nullable Connection connection,
      boolean endTransaction, @Nullable RunningStatement statement,
      @Nullable ResultSet resultSet, @Nullable Registry registry,
      @Nullable Iterator<@Nullable Object[]> rows) {
    this.endpoint = request.endpoint();
    this.rowReader = rowReader;
    this.options = options;
    this.deadlineNanos = deadlineNanos;
    this.startedNanos = startedNanos;
    this.connection = connection;
    this.endTransaction = endTransaction;
    this.statement = statement;
    this.resultSet = resultSet;
    this.registry = registry;
    this.rows = rows;
  }

  /**
   * Runs a request, on its fallbacks if its own shard fails before returning rows. Returns null
   * if the registry refused the statement (the scan closed).
   *
   * @param deadlineNanos {@link System#nanoTime()} at which the query times out; unused when
   *     {@code options} have no timeout
   * @throws ShardException naming the shard that failed (the request's own when no fallback
   *     could be reached either, with the fallbacks' failures suppressed)
   */
  static @Nullable ShardCursor open(ShardRequest request, RowReader rowReader, Registry registry,
      ScanOptions options, long deadlineNanos) {
    try {
      return openOn(request, rowReader, registry, options, deadlineNanos);
    } catch (SQLException | RuntimeException e) {
      if (request.fallbacks().isEmpty()) {
        throw named(request.endpoint(), e);
      }
      return openFallback(request, e, rowReader, registry, options, deadlineNanos);
    }
  }

  private static @Nullable ShardCursor openFallback(ShardRequest request, Exception failure,
      RowReader rowReader, Registry registry, ScanOptions options, long deadlineNanos) {
    ShardException first = named(request.endpoint(), failure);
    for (ShardRequest fallback : request.fallbacks()) {
      LOG.debug("shard '{}' cannot be reached ({}); reading from shard '{}' instead",
          request.endpoint().name(), first.detail(), fallback.endpoint().name());
      try {
        return openOn(fallback, rowReader, registry, options, deadlineNanos);
      } catch (SQLException | RuntimeException e) {
        first.addSuppressed(named(fallback.endpoint(), e));
      }
    }
    throw first;
  }

  /** The failure as one naming its shard; reading the first rows names it already. */
  private static ShardException named(ShardEndpoint endpoint, Exception e) {
    return e instanceof ShardException named ? named : ShardException.of(endpoint, e);
  }

  /**
   * Runs a request on its own shard; a failure is counted for that shard (one while reading
   * the first rows, a {@link ShardException}, the cursor counted itself).
   */
  private static @Nullable ShardCursor openOn(ShardRequest request, RowReader rowReader,
      Registry registry, ScanOptions options, long deadlineNanos) throws SQLException {
    long begun = System.nanoTime();
    TrackedStatement tracked = options.services().statements().of(options.cancelFlag());
    ShardRun shardRun = tracked == null ? null
        : tracked.startShard(request.endpoint().name(), request.sql());
    try {
      ShardCursor cursor = run(request, rowReader, registry, options, deadlineNanos);
      if (cursor != null) {
        cursor.tracked(shardRun);
      } else if (shardRun != null) {
        shardRun.end(0, ShardMetrics.Outcome.CANCELED.tag());
      }
      return cursor;
    } catch (SQLException | RuntimeException | Error e) {
      ShardMetrics.Outcome outcome = ShardMetrics.Outcome.of(e, registry.stopped());
      if (shardRun != null) {
        shardRun.end(0, outcome.tag());
      }
      if (!(e instanceof ShardException)) {
        options.services().metrics().statement(request.endpoint().name(),
            System.nanoTime() - begun, 0, outcome);
      }
      throw e;
    }
  }

  /**
   * Gives the cursor the client statement's record of it, which it keeps up to date; the
   * cursor may have read every row, and closed, already.
   */
  private void tracked(@Nullable ShardRun run) {
    if (run == null) {
      return;
    }
    shardRun = run;
    if (recorded) {
      run.end(rowsRead, recordedOutcome.tag());
    } else {
      run.rows(rowsRead);
    }
  }

  private static @Nullable ShardCursor run(ShardRequest request, RowReader rowReader,
      Registry registry, ScanOptions options, long deadlineNanos) throws SQLException {
    ShardEndpoint endpoint = request.endpoint();
    Connection connection = endpoint.connect(registry::stopped);
    boolean endTransaction = false;
    try {
      boolean autoCommit = connection.getAutoCommit();
      if (endpoint.streamsInTransactionOnly() && autoCommit) {
        if (options.fewRowsExpected() && options.fetchSize() > 0) {
          Outcome few = readFew(request, connection, rowReader, registry, options,
              deadlineNanos);
          if (!few.tooMany()) {
            connection.close();
            return few.cursor();
          }
          // More rows than one fetch: read them again, streaming. Nothing was handed over, so
          // the rows of the first run are simply dropped.
        }
        connection.setAutoCommit(false);
        endTransaction = true;
      }
      return stream(request, connection, endTransaction, rowReader, registry, options,
          deadlineNanos);
    } catch (SQLException | RuntimeException | Error e) {
      release(endpoint, connection, endTransaction, null, null, e);
      throw e;
    }
  }

  /**
   * What {@link #readFew} found: more rows than it reads, or a cursor over every row, or null
   * when the scan closed.
   */
  private record Outcome(boolean tooMany, @Nullable ShardCursor cursor) {
    static final Outcome TOO_MANY = new Outcome(true, null);
    static final Outcome CLOSED = new Outcome(false, null);
  }

  /**
   * Reads at most {@code fetchSize + 1} rows in autocommit mode, which costs no transaction and
   * so one round trip less than streaming; the driver holds them all, which the limit bounds.
   */
  private static Outcome readFew(ShardRequest request, Connection connection,
      RowReader rowReader, Registry registry, ScanOptions options, long deadlineNanos)
      throws SQLException {
    int limit = options.fetchSize();
    try (PreparedStatement statement = prepare(request, connection)) {
      long started = System.nanoTime();
      long statementTimeout = request.endpoint().statementTimeoutMillis();
      RunningStatement running = new RunningStatement(request.endpoint(),
          options.services().signals(), statement, connection,
          limitMillis(options, deadlineNanos, statementTimeout));
      if (!registry.register(running)) {
        return Outcome.CLOSED;
      }
      try {
        configure(statement, request.parameters(), options.fetchSize(), options, deadlineNanos,
            statementTimeout);
        statement.setMaxRows(limit + 1);
        List<@Nullable Object[]> rows = new ArrayList<>();
        try (ResultSet resultSet = statement.executeQuery()) {
          while (resultSet.next()) {
            if (rows.size() == limit) {
              return Outcome.TOO_MANY;
            }
            rows.add(rowReader.read(resultSet));
          }
        } catch (SQLException e) {
          throw explainTimeout(e, options, deadlineNanos, started, statementTimeout);
        }
        return new Outcome(false, new ShardCursor(request, rowReader, options, deadlineNanos,
            started, null, false, null, null, null, rows.iterator()));
      } finally {
        registry.unregister(running);
        running.release();
      }
    }
  }

  /**
   * Executes the request and returns a cursor over its streaming result set, or over its rows
   * alone when they all came with the first {@link #prefetchRows} rows: the connection then
   * goes back to its pool before the consumer sees a row, however slowly it reads.
   */
  private static @Nullable ShardCursor stream(ShardRequest request, Connection connection,
      boolean endTransaction, RowReader rowReader, Registry registry, ScanOptions options,
      long deadlineNanos) throws SQLException {
    PreparedStatement statement = prepare(request, connection);
    long started = System.nanoTime();
    long statementTimeout = request.endpoint().statementTimeoutMillis();
    RunningStatement running = null;
    boolean registered = false;
    try {
      running = new RunningStatement(request.endpoint(), options.services().signals(),
          statement, connection, limitMillis(options, deadlineNanos, statementTimeout));
      if (!registry.register(running)) {
        release(request.endpoint(), connection, endTransaction, running, null, null);
        return null;
      }
      registered = true;
      configure(statement, request.parameters(),
          request.endpoint().fetchSize(options.fetchSize()), options, deadlineNanos,
          statementTimeout);
      ResultSet resultSet;
      try {
        resultSet = statement.executeQuery();
      } catch (SQLException e) {
        throw explainTimeout(e, options, deadlineNanos, started, statementTimeout);
      }
      ShardCursor cursor = new ShardCursor(request, rowReader, options, deadlineNanos, started,
          connection, endTransaction, running, resultSet, registry, null);
      return cursor.prefetched();
    } catch (SQLException | RuntimeException | Error e) {
      if (running != null) {
        if (registered) {
          registry.unregister(running);
        }
        running.release();
      }
      closeQuietly(request.endpoint(), statement, e);
      throw e;
    }
  }

  /**
   * Reads up to {@link #prefetchRows} rows; if the result ends there, releases the connection
   * and returns a cursor over them, else a cursor that returns them and then streams the rest.
   */
  private ShardCursor prefetched() {
    int limit = prefetchRows(options);
    List<@Nullable Object[]> first = new ArrayList<>();
    @Nullable Object @Nullable [] row;
    while (first.size() < limit && (row = next()) != null) {
      first.add(row);
    }
    if (first.size() < limit) {
      close();
    }
    head = first.iterator();
    return this;
  }

  /** How many rows a streaming cursor reads before it hands the first one over. */
  static int prefetchRows(ScanOptions options) {
    return Math.max(options.batchSize(), options.fetchSize());
  }

  private static PreparedStatement prepare(ShardRequest request, Connection connection)
      throws SQLException {
    return connection.prepareStatement(request.sql(), ResultSet.TYPE_FORWARD_ONLY,
        ResultSet.CONCUR_READ_ONLY);
  }

  /**
   * Returns the next row, or null after the last.
   *
   * @throws ShardException naming the shard when reading fails
   */
  @Nullable Object @Nullable [] next() {
    if (head != null && head.hasNext()) {
      return head.next();
    }
    if (rows != null) {
      if (!rows.hasNext()) {
        return null;
      }
      rowsRead++;
      if (shardRun != null) {
        shardRun.rows(rowsRead);
      }
      return rows.next();
    }
    if (closed) {
      return null;
    }
    try {
      ResultSet open = Objects.requireNonNull(resultSet, "resultSet");
      if (!open.next()) {
        return null;
      }
      rowsRead++;
      if (shardRun != null) {
        shardRun.rows(rowsRead);
      }
      return rowReader.read(open);
    } catch (SQLException e) {
      SQLException explained = explainTimeout(e, options, deadlineNanos, startedNanos,
          endpoint.statementTimeoutMillis());
      record(ShardMetrics.Outcome.of(explained, registry != null && registry.stopped()));
      throw ShardException.of(endpoint, explained);
    } catch (RuntimeException e) {
      record(ShardMetrics.Outcome.ERROR);
      throw ShardException.of(endpoint, e);
    }
  }

  /** Gives the statement to the shard's meters, once: its time until now and its rows. */
  private void record(ShardMetrics.Outcome outcome) {
    if (!recorded) {
      recorded = true;
      recordedOutcome = outcome;
      if (shardRun != null) {
        shardRun.end(rowsRead, outcome.tag());
      }
      options.services().metrics().statement(endpoint.name(), System.nanoTime() - startedNanos,
          rowsRead, outcome);
    }
  }

  /**
   * Says whether the reading thread now waits for the consumer, during which the shard's
   * time limits do not count against it.
   */
  void waitingForConsumer(boolean waiting) {
    if (statement != null && !closed) {
      statement.waitingForConsumer(waiting);
    }
  }

  /** Closes the result set and statement, ends the read transaction, returns the connection. */
  @Override public void close() {
    record(ShardMetrics.Outcome.OK);
    if (!closed && connection != null) {
      release(endpoint, connection, endTransaction, statement, registry, null);
    }
    closed = true;
  }

  private static void closeQuietly(ShardEndpoint endpoint, Statement statement,
      Throwable pending) {
    try {
      statement.close();
    } catch (SQLException | RuntimeException e) {
      pending.addSuppressed(e);
    }
  }

  /**
   * Releases what a request holds, in order; failures are logged (the pool resets or evicts the
   * connection) or, when {@code pending} is the failure that ends the request, added to it.
   */
  private static void release(ShardEndpoint endpoint, Connection connection,
      boolean endTransaction, @Nullable RunningStatement statement,
      @Nullable Registry registry, @Nullable Throwable pending) {
    try {
      if (statement != null) {
        if (registry != null) {
          registry.unregister(statement);
        }
        statement.release();
        statement.statement().close();
      }
      if (endTransaction) {
        connection.rollback();
        connection.setAutoCommit(true);
      }
    } catch (SQLException | RuntimeException e) {
      LOG.debug("ending the read on shard '{}' failed: {}", endpoint.name(),
          endpoint.redact(String.valueOf(e.getMessage())));
    } finally {
      try {
        connection.close();
      } catch (SQLException | RuntimeException e) {
        if (pending != null) {
          pending.addSuppressed(e);
        } else {
          LOG.debug("returning a connection of shard '{}' failed", endpoint.name(), e);
        }
      }
    }
  }

  /**
   * Sets the fetch size, the parameters and the statement's time limit: the time left of the
   * query's timeout, or the shard's statement timeout where that is shorter, rounded up to the
   * whole seconds JDBC counts in.
   */
  private static void configure(PreparedStatement statement, List<@Nullable Object> parameters,
      int fetchSize, ScanOptions options, long deadlineNanos, long statementTimeoutMillis)
      throws SQLException {
    statement.setFetchSize(fetchSize);
    long limitMillis = limitMillis(options, deadlineNanos, statementTimeoutMillis);
    if (limitMillis > 0) {
      long seconds = (limitMillis + 999) / 1000;
      statement.setQueryTimeout((int) Math.min(seconds, Integer.MAX_VALUE));
    }
    for (int i = 0; i < parameters.size(); i++) {
      statement.setObject(i + 1, parameters.get(i));
    }
  }

  /**
   * Returns the time a statement starting now may run: the time left of the query's timeout,
   * or the shard's statement timeout where that is shorter; 0 for no limit.
   *
   * @throws QueryTimeoutException if the query's time is up already
   */
  private static long limitMillis(ScanOptions options, long deadlineNanos,
      long statementTimeoutMillis) throws SQLTimeoutException {
    long limitMillis = 0;
    if (options.timeout().limited()) {
      limitMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
      if (limitMillis <= 0) {
        throw options.timeout().elapsed(" before the statement started");
      }
    }
    if (statementTimeoutMillis > 0 && (limitMillis == 0 || statementTimeoutMillis < limitMillis)) {
      limitMillis = statementTimeoutMillis;
    }
    return limitMillis;
  }

  /**
   * Says which time limit ended a statement: drivers report their own timeout as a plain
   * cancel (PostgreSQL: "canceling statement due to user request").
   */
  private static SQLException explainTimeout(SQLException e, ScanOptions options,
      long deadlineNanos, long startedNanos, long statementTimeoutMillis) {
    long now = System.nanoTime();
    if (options.timeout().limited() && now - deadlineNanos >= 0) {
      QueryTimeoutException timeout = options.timeout().elapsed(" (" + e.getMessage() + ")");
      timeout.initCause(e);
      return timeout;
    } else if (statementTimeoutMillis > 0
        && now - startedNanos >= TimeUnit.MILLISECONDS.toNanos(statementTimeoutMillis)) {
      return new SQLTimeoutException("statement timeout of " + statementTimeoutMillis
          + " ms elapsed (" + e.getMessage() + ")", e.getSQLState(), e.getErrorCode(), e);
    } else {
      return e;
    }
  }
}
