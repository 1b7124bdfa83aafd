package io.shardset.calcite.remote;

import io.shardset.calcite.jdbc.ClientErrors;
import io.shardset.execution.QueryTimeout;
import io.shardset.execution.QueryTimeoutException;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.AccessibleRemoteMeta;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.remote.TypedValue;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Avatica's remote metadata with the query timeouts and the cancel JDBC promises. Avatica's
 * protocol carries neither a statement's {@code setQueryTimeout} nor a cancel, so when a
 * statement's timeout is up while the server executes it or sends its rows, or when
 * {@code Statement.cancel()} is called then, this closes the statement on the server (from a
 * timer thread, or the canceling one); the server then stops it, its shard statements
 * included, and the call that waits fails with SQLState
 * {@value QueryTimeoutException#SQL_STATE} ({@code Statement canceled} for a cancel).
 *
 * <p>The time counts from the execution until the server has sent the last row, as an embedded
 * {@code jdbc:shardset:} statement's does. A statement that timed out runs again (Avatica's
 * client opens a new one on the server); a prepared statement must be prepared again.
 *
 * <p>The server's error of a prepare, an execution or a fetch is thrown as the SQLException
 * whose message is the server's reason ({@link RemoteFailures}), which Avatica's statements
 * pass on, rather than as the unchecked exception they would word themselves.
 */
final class TimedRemoteMeta extends AccessibleRemoteMeta {
  private static final Logger LOG = LoggerFactory.getLogger(TimedRemoteMeta.class);
  /** SQLState of a statement canceled on request (query canceled). */
  static final String CANCELED_STATE = "57014";

  private final AvaticaConnection connection;
  /** The running executions that have a timeout, by statement id. */
  private final Map<Integer, Deadline> deadlines = new ConcurrentHashMap<>();
  /** Started with the first statement that has a timeout; guarded by this. */
  private @Nullable ScheduledExecutorService timer;
  private boolean closed;

  TimedRemoteMeta(AvaticaConnection connection, Service service) {
    super(connection, service);
    this.connection = connection;
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    final Deadline deadline = start(h);
    final ExecuteResult result;
    try {
      result = super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
    } catch (RuntimeException | NoSuchStatementException e) {
      endAfterFailure(deadline, e);
      if (e instanceof RuntimeException unchecked) {
        throw reasoned(unchecked);
      }
      throw e;
    }
    return executed(deadline, result);
  }

  /**
   * Sends a change of the connection's properties (autocommit, read-only, isolation) at once,
   * so that the call that makes it is the one a refusal fails, and a refused change is not
   * kept ({@link #syncNow}); a read of them asks as Avatica's client does.
   */
  @Override public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties connProps) {
    return connProps.isEmpty() ? super.connectionSync(ch, connProps) : syncNow(ch, connProps);
  }

  @Override public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    try {
      return super.prepare(ch, sql, maxRowCount);
    } catch (RuntimeException e) {
      throw reasoned(e);
    }
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    final Deadline deadline = start(h);
    final ExecuteResult result;
    try {
      result = super.execute(h, parameterValues, maxRowsInFirstFrame);
    } catch (RuntimeException | NoSuchStatementException e) {
      endAfterFailure(deadline, e);
      if (e instanceof RuntimeException unchecked) {
        throw reasoned(unchecked);
      }
      throw e;
    }
    return executed(deadline, result);
  }

  @Override public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    try {
      return super.executeBatch(h, parameterValues);
    } catch (RuntimeException e) {
      throw reasoned(e);
    }
  }

  @Override public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h,
      List<String> sqlCommands) throws NoSuchStatementException {
    try {
      return super.prepareAndExecuteBatch(h, sqlCommands);
    } catch (RuntimeException e) {
      throw reasoned(e);
    }
  }

  @Override public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    final Deadline deadline = deadlines.get(h.id);
    if (deadline != null && deadline.fired) {
      throw ClientErrors.raise(deadline.elapsed(null));
    }
    final Frame frame;
    try {
      frame = super.fetch(h, offset, fetchMaxRowCount);
    } catch (RuntimeException | NoSuchStatementException | MissingResultsException e) {
      endAfterFailure(deadline, e);
      // The server's error (its own timeout too, --statement-timeout): a SQLException, not
      // the unchecked exception Avatica's client lets ResultSet.next() throw.
      if (e instanceof RuntimeException unchecked) {
        throw reasoned(unchecked);
      }
      throw e;
    }
    if (deadline != null && (frame.done ? deadline.end() : deadline.fired)) {
      throw ClientErrors.raise(deadline.elapsed(null));
    }
    return frame;
  }

  @Override public void closeStatement(StatementHandle h) {
    final Deadline deadline = deadlines.remove(h.id);
    if (deadline != null) {
      deadline.end();
    }
    super.closeStatement(h);
  }

  @Override public void closeConnection(ConnectionHandle ch) {
    try {
      super.closeConnection(ch);
    } finally {
      synchronized (this) {
        closed = true;
        if (timer != null) {
          timer.shutdownNow();
        }
      }
    }
  }

  /**
   * Starts an execution, which {@link #cancel} can stop; its time too, when its statement has
   * a timeout. Null for a closed statement, whose execution fails for that reason.
   */
  private @Nullable Deadline start(StatementHandle h) {
    final Deadline previous = deadlines.remove(h.id);
    if (previous != null) {
      previous.end();
    }
    final AvaticaStatement statement = connection.statementMap.get(h.id);
    final int seconds;
    try {
      seconds = statement == null ? 0 : statement.getQueryTimeout();
    } catch (SQLException e) {
      return null;
    }
    final Deadline deadline = new Deadline(h, seconds);
    deadlines.put(h.id, deadline);
    if (seconds > 0) {
      final ScheduledExecutorService alarms = timer();
      if (alarms != null) {
        deadline.arm(alarms);
      }
    }
    return deadline;
  }

  /**
   * Stops the statement's execution, if one runs: closes the statement on the server, which
   * stops it there, its shard statements included, and the call that waits for it fails with
   * {@code Statement canceled} (SQLState {@value #CANCELED_STATE}). Avatica's protocol has no
   * cancel request; the statement runs again afterwards, a prepared one once prepared again.
   */
  void cancel(StatementHandle h) {
    final Deadline running = deadlines.get(h.id);
    if (running != null) {
      running.cancel();
    }
  }

  /** The rows of an execution, or its timeout; the time ends with the last row. */
  private ExecuteResult executed(@Nullable Deadline deadline, ExecuteResult result) {
    if (deadline == null) {
      return result;
    }
    final boolean done = result.resultSets.stream()
        .allMatch(r -> r.updateCount != -1 || r.firstFrame != null && r.firstFrame.done);
    if (done ? deadline.end() : deadline.fired) {
      throw ClientErrors.raise(deadline.elapsed(null));
    }
    return result;
  }

  /**
   * Ends the time of an execution that failed; throws the timeout if it was up, whose cause
   * is the server's error.
   */
  private static void endAfterFailure(@Nullable Deadline deadline, Exception e) {
    if (deadline != null && deadline.end()) {
      final SQLException server = RemoteFailures.of(e);
      throw ClientErrors.raise(deadline.elapsed(server == null ? e : server));
    }
  }

  /**
   * The server's error as the SQLException whose message is its reason
   * ({@link RemoteFailures}), thrown unchecked: the statements and result sets of Avatica's
   * client pass it on as it is (a prepared statement's execution wraps it, and
   * {@link ShardSetRemoteFactory}'s connection unwraps it). Any other failure stays as it is.
   */
  private static RuntimeException reasoned(RuntimeException e) {
    final SQLException server = RemoteFailures.of(e);
    return server == null ? e : ClientErrors.raise(server);
  }

  private synchronized @Nullable ScheduledExecutorService timer() {
    if (closed) {
      return null;
    }
    if (timer == null) {
      timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        final Thread thread = new Thread(runnable, "shardset-remote-timeouts");
        thread.setDaemon(true);
        return thread;
      });
    }
    return timer;
  }

  /** One execution of a statement, until its last row: what a cancel stops, and its time
   * limit if it has one. */
  private final class Deadline {
    private final StatementHandle handle;
    private final QueryTimeout timeout;
    private volatile boolean fired;
    private volatile boolean canceled;
    private @Nullable ScheduledFuture<?> alarm;

    Deadline(StatementHandle handle, int seconds) {
      this.handle = handle;
      this.timeout = QueryTimeout.of(TimeUnit.SECONDS.toMillis(seconds), 0);
    }

    void arm(ScheduledExecutorService alarms) {
      alarm = alarms.schedule(this::fire, timeout.setMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the execution on request rather than at its time limit. */
    void cancel() {
      canceled = true;
      fire();
    }

    /** Closes the statement on the server, which stops it there. */
    private void fire() {
      if (fired) {
        return;
      }
      fired = true;
      try {
        TimedRemoteMeta.super.closeStatement(handle);
      } catch (RuntimeException e) {
        LOG.debug("closing statement {} on the server after its {} failed", handle.id,
            timeout.describe(), e);
      }
    }

    /** Ends the time; returns whether it was up before. */
    boolean end() {
      final ScheduledFuture<?> armed = alarm;
      if (armed != null) {
        armed.cancel(false);
      }
      deadlines.remove(handle.id, this);
      return fired;
    }

    /** The error of the execution this stopped: its timeout, or its cancel. */
    SQLException elapsed(@Nullable Exception cause) {
      final SQLException elapsed = canceled
          ? new SQLException("Statement canceled; the statement was closed on the server",
              CANCELED_STATE)
          : new QueryTimeoutException(timeout.describe()
              + " elapsed; the statement was closed on the server");
      if (cause != null) {
        elapsed.initCause(cause);
      }
      return elapsed;
    }
  }
}
