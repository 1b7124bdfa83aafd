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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs shard requests one after another on a producer thread and streams their rows, in
 * batches, into a {@link Sink}; every connection, statement and result set it opens is closed
 * before {@link #run} returns.
 */
final class ShardStream {
  private static final Logger LOG = LoggerFactory.getLogger(ShardStream.class);

  /** Where a stream sends its batches, and how the scan learns which statement is running. */
  interface Sink {
    /** Records a statement as running, so that it can be canceled; false if the scan closed. */
    boolean register(Statement statement);

    /** Forgets a statement before it is closed, so that it is never canceled afterwards. */
    void unregister(Statement statement);

    /** Hands over a batch, waiting for room; false if the scan closed or was canceled. */
    boolean offer(List<@Nullable Object[]> batch);
  }

  private final Sink sink;
  private final RowReader rowReader;
  private final ScanOptions options;
  /** {@link System#nanoTime()} at which the query times out; unused without timeout. */
  private final long deadlineNanos;
  /** Whether the current request handed over rows. */
  private boolean delivered;

  ShardStream(Sink sink, RowReader rowReader, ScanOptions options, long deadlineNanos) {
    this.sink = sink;
    this.rowReader = rowReader;
    this.options = options;
    this.deadlineNanos = deadlineNanos;
  }

  /**
   * Streams the rows of one request into the sink. Returns when they are all handed over or the
   * scan closed; throws what the shard threw.
   */
  void run(ShardRequest request) throws SQLException {
    delivered = false;
    try (Connection connection = request.endpoint().connect()) {
      run(request, connection);
    } catch (SQLException e) {
      // A pooled connection the shard has dropped fails only when first used, so any failure
      // before the first row counts as an unreachable shard.
      if (request.fallbacks().isEmpty() || delivered) {
        throw e;
      }
      runFallback(request, e);
    }
  }

  /**
   * Runs a request on the first of its fallbacks that can be reached, once its own shard failed
   * before handing over any row (after that, the fallback would repeat rows). Throws the first
   * failure if no fallback can be reached either.
   */
  private void runFallback(ShardRequest request, SQLException failure) throws SQLException {
    for (ShardRequest fallback : request.fallbacks()) {
      LOG.debug("shard '{}' cannot be reached ({}); reading from shard '{}' instead",
          request.endpoint().name(), request.endpoint().redact(failure.getMessage()),
          fallback.endpoint().name());
      try (Connection connection = fallback.endpoint().connect()) {
        run(fallback, connection);
        return;
      } catch (SQLException | RuntimeException e) {
        if (delivered) {
          throw ShardException.of(fallback.endpoint(), e);
        }
        failure.addSuppressed(ShardException.of(fallback.endpoint(), e));
      }
    }
    throw failure;
  }

  private void run(ShardRequest request, Connection connection) throws SQLException {
    // PostgreSQL streams with a fetch size only inside a transaction.
    boolean autoCommit = connection.getAutoCommit();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    try {
      execute(connection, request);
    } finally {
      if (autoCommit) {
        endTransaction(connection, request.endpoint());
      }
    }
  }

  private void execute(Connection connection, ShardRequest request) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(request.sql(),
        ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      if (!sink.register(statement)) {
        return;
      }
      try {
        final long started = System.nanoTime();
        final long statementTimeout = request.endpoint().statementTimeoutMillis();
        configure(statement, request.parameters(), statementTimeout);
        try (ResultSet resultSet = statement.executeQuery()) {
          copyRows(resultSet);
        } catch (SQLException e) {
          throw explainTimeout(e, started, statementTimeout);
        }
      } finally {
        sink.unregister(statement);
      }
    }
  }

  /**
   * Sets the fetch size, the parameters and the statement's time limit: the time left of the
   * query's timeout, or the shard's statement timeout where that is shorter, rounded up to the
   * whole seconds JDBC counts in.
   */
  private void configure(PreparedStatement statement, List<@Nullable Object> parameters,
      long statementTimeoutMillis) throws SQLException {
    statement.setFetchSize(options.fetchSize());
    long limitMillis = 0;
    if (options.timeoutMillis() > 0) {
      limitMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
      if (limitMillis <= 0) {
        throw new SQLTimeoutException("query timeout of " + options.timeoutMillis()
            + " ms elapsed before the statement started");
      }
    }
    if (statementTimeoutMillis > 0 && (limitMillis == 0 || statementTimeoutMillis < limitMillis)) {
      limitMillis = statementTimeoutMillis;
    }
    if (limitMillis > 0) {
      long seconds = (limitMillis + 999) / 1000;
      statement.setQueryTimeout((int) Math.min(seconds, Integer.MAX_VALUE));
    }
    for (int i = 0; i < parameters.size(); i++) {
      statement.setObject(i + 1, parameters.get(i));
    }
  }

  /**
   * Says which time limit ended a statement: drivers report their own timeout as a plain
   * cancel (PostgreSQL: "canceling statement due to user request").
   */
  private SQLException explainTimeout(SQLException e, long startedNanos,
      long statementTimeoutMillis) {
    long now = System.nanoTime();
    String limit;
    if (options.timeoutMillis() > 0 && now - deadlineNanos >= 0) {
      limit = "query timeout of " + options.timeoutMillis() + " ms";
    } else if (statementTimeoutMillis > 0
        && now - startedNanos >= TimeUnit.MILLISECONDS.toNanos(statementTimeoutMillis)) {
      limit = "statement timeout of " + statementTimeoutMillis + " ms";
    } else {
      return e;
    }
    return new SQLTimeoutException(limit + " elapsed (" + e.getMessage() + ")", e.getSQLState(),
        e.getErrorCode(), e);
  }

  private void copyRows(ResultSet resultSet) throws SQLException {
    int batchSize = options.batchSize();
    List<@Nullable Object[]> batch = new ArrayList<>(batchSize);
    while (resultSet.next()) {
      batch.add(rowReader.read(resultSet));
      if (batch.size() == batchSize) {
        delivered = true;
        if (!sink.offer(batch)) {
          return;
        }
        batch = new ArrayList<>(batchSize);
      }
    }
    if (!batch.isEmpty()) {
      delivered = true;
      sink.offer(batch);
    }
  }

  /** Ends the read-only transaction opened for streaming and restores autocommit. */
  private static void endTransaction(Connection connection, ShardEndpoint endpoint) {
    try {
      connection.rollback();
      connection.setAutoCommit(true);
    } catch (SQLException e) {
      // The pool resets or evicts the connection; the rows were delivered or the error reported.
      LOG.debug("ending the read transaction on shard '{}' failed: {}", endpoint.name(),
          endpoint.redact(e.getMessage()));
    }
  }
}
