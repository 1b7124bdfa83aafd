package io.shardset.calcite.jdbc;

import io.shardset.execution.QueryTimeout;
import io.shardset.execution.QueryTimeoutException;
import io.shardset.execution.ShardException;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaSeverity;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The rows of a query whose statement set a time limit, as its ResultSet reads them: once the
 * limit is up, the next row fails with SQLState {@value QueryTimeoutException#SQL_STATE} and
 * the shard scans under the rows are closed, however fast the shards answered. The scans
 * enforce the limit while the query waits for a shard; this enforces it while the client, or
 * Calcite's own work on rows the shards already sent, takes the time.
 *
 * <p>A timeout that a scan reports arrives as the SQLException JDBC promises, with its state,
 * rather than as the unchecked exception Calcite's enumerators throw.
 */
final class TimedRows implements Iterable<Object> {
  private final Iterable<Object> rows;
  private final QueryTimeout timeout;
  /** {@link System#nanoTime()} at which the limit is up. */
  private final long deadlineNanos;

  private TimedRows(Iterable<Object> rows, QueryTimeout timeout) {
    this.rows = rows;
    this.timeout = timeout;
    this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout.setMillis());
  }

  /** Returns the rows of an execution that starts now, limited to {@code seconds} if positive. */
  static Iterable<Object> of(Iterable<Object> rows, int seconds) {
    return seconds <= 0 ? rows
        : new TimedRows(rows, QueryTimeout.of(TimeUnit.SECONDS.toMillis(seconds), 0));
  }

  /**
   * Starts reading the rows, which reads the first one (Linq4j's iterator does): a timeout then
   * fails the statement's execution, which passes on the state of an
   * {@link AvaticaClientRuntimeException} only.
   */
  @Override public Iterator<Object> iterator() {
    final Iterator<Object> started;
    try {
      started = rows.iterator();
    } catch (RuntimeException e) {
      final SQLException timedOut = timedOut(e);
      if (timedOut == null) {
        throw e;
      }
      final AvaticaClientRuntimeException failure = new AvaticaClientRuntimeException(
          timedOut.getMessage(), timedOut.getErrorCode(), timedOut.getSQLState(),
          AvaticaSeverity.ERROR, List.of(), null);
      failure.initCause(timedOut);
      throw failure;
    }
    return new Rows(started);
  }

  /**
   * A scan's timeout as a SQLException with its state; any failure once the time is up as
   * the timeout (canceled statements fail in their drivers' words); null for anything else.
   */
  private @Nullable SQLException timedOut(RuntimeException e) {
    final SQLTimeoutException timedOut = timeoutIn(e);
    if (timedOut != null) {
      return new SQLTimeoutException(message(e, timedOut),
          timedOut.getSQLState() == null ? QueryTimeoutException.SQL_STATE
              : timedOut.getSQLState(), timedOut.getErrorCode(), e);
    }
    if (System.nanoTime() - deadlineNanos >= 0) {
      return new QueryTimeoutException(timeout.describe() + " elapsed", e);
    }
    return null;
  }

  /** The rows, checked against the deadline; closing them closes the scans. */
  private final class Rows implements Iterator<Object>, AutoCloseable {
    private final Iterator<Object> rows;

    Rows(Iterator<Object> rows) {
      this.rows = rows;
    }

    @Override public boolean hasNext() {
      checkTime();
      try {
        return rows.hasNext();
      } catch (RuntimeException e) {
        throw translated(e);
      }
    }

    @Override public Object next() {
      checkTime();
      try {
        return rows.next();
      } catch (RuntimeException e) {
        throw translated(e);
      }
    }

    @Override public void close() throws Exception {
      if (rows instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }

    private void checkTime() {
      if (System.nanoTime() - deadlineNanos >= 0) {
        final QueryTimeoutException elapsed =
            new QueryTimeoutException(timeout.describe() + " elapsed");
        try {
          close();
        } catch (Exception e) {
          elapsed.addSuppressed(e);
        }
        throw ClientErrors.raise(elapsed);
      }
    }

    /** A failure, or the timeout it stands for as a SQLException, which JDBC promises. */
    private RuntimeException translated(RuntimeException e) {
      final SQLException timedOut = timedOut(e);
      return timedOut == null ? e : ClientErrors.raise(timedOut);
    }
  }

  private static @Nullable SQLTimeoutException timeoutIn(Throwable e) {
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof SQLTimeoutException timedOut) {
        return timedOut;
      }
    }
    return null;
  }

  /** The message naming the shard, when a shard's failure carries the timeout. */
  private static String message(Throwable e, SQLTimeoutException timedOut) {
    for (Throwable t = e; t != null && t != timedOut; t = t.getCause()) {
      if (t instanceof ShardException shard) {
        return shard.getMessage();
      }
    }
    return String.valueOf(timedOut.getMessage());
  }
}
