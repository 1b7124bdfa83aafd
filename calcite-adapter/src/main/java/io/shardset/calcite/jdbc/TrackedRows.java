package io.shardset.calcite.jdbc;

import java.sql.SQLTimeoutException;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * The rows of a tracked execution ({@link io.shardset.execution.StatementTracker}), which end
 * its tracking when the last row has been read ({@code ok}), when reading fails
 * ({@code timeout} or {@code error}; {@code canceled} if the statement was), or when they are
 * closed before the last row ({@code closed}), whichever comes first.
 */
final class TrackedRows implements Iterable<Object> {
  private final Iterable<Object> rows;
  /** Told how the execution ended. */
  private final Consumer<String> ended;

  TrackedRows(Iterable<Object> rows, Consumer<String> ended) {
    this.rows = rows;
    this.ended = ended;
  }

  /** How an execution that failed with {@code failure} ended: a timeout or an error. */
  static String outcome(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof SQLTimeoutException) {
        return "timeout";
      }
    }
    return "error";
  }

  @Override public Iterator<Object> iterator() {
    final Iterator<Object> started;
    try {
      started = rows.iterator();
    } catch (Throwable e) {
      ended.accept(outcome(e));
      throw e;
    }
    return new Rows(started);
  }

  /** The rows, watched for their end. A failure is caught as any Throwable: the timeout's
   * SQLException arrives thrown unchecked. */
  private final class Rows implements Iterator<Object>, AutoCloseable {
    private final Iterator<Object> rows;

    Rows(Iterator<Object> rows) {
      this.rows = rows;
    }

    @Override public boolean hasNext() {
      final boolean more;
      try {
        more = rows.hasNext();
      } catch (Throwable e) {
        ended.accept(outcome(e));
        throw e;
      }
      if (!more) {
        ended.accept("ok");
      }
      return more;
    }

    @Override public Object next() {
      try {
        return rows.next();
      } catch (Throwable e) {
        ended.accept(outcome(e));
        throw e;
      }
    }

    @Override public void close() throws Exception {
      try {
        if (rows instanceof AutoCloseable closeable) {
          closeable.close();
        }
      } finally {
        // After the last row (or a failure) this changes nothing.
        ended.accept("closed");
      }
    }
  }
}
