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
    try (Connection connection = request.endpoint().connect()) {
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
  }

  private void execute(Connection connection, ShardRequest request) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(request.sql(),
        ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      if (!sink.register(statement)) {
        return;
      }
      try {
        configure(statement, request.parameters());
        try (ResultSet resultSet = statement.executeQuery()) {
          copyRows(resultSet);
        }
      } finally {
        sink.unregister(statement);
      }
    }
  }

  private void configure(PreparedStatement statement, List<@Nullable Object> parameters)
      throws SQLException {
    statement.setFetchSize(options.fetchSize());
    if (options.timeoutMillis() > 0) {
      long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
      if (leftMillis <= 0) {
        throw new SQLTimeoutException("query timeout of " + options.timeoutMillis()
            + " ms elapsed before the statement started");
      }
      long seconds = (leftMillis + 999) / 1000;
      statement.setQueryTimeout((int) Math.min(seconds, Integer.MAX_VALUE));
    }
    for (int i = 0; i < parameters.size(); i++) {
      statement.setObject(i + 1, parameters.get(i));
    }
  }

  private void copyRows(ResultSet resultSet) throws SQLException {
    int batchSize = options.batchSize();
    List<@Nullable Object[]> batch = new ArrayList<>(batchSize);
    while (resultSet.next()) {
      batch.add(rowReader.read(resultSet));
      if (batch.size() == batchSize) {
        if (!sink.offer(batch)) {
          return;
        }
        batch = new ArrayList<>(batchSize);
      }
    }
    if (!batch.isEmpty()) {
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
