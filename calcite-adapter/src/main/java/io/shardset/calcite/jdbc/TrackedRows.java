package io.shardset.calcite.jdbc;

import java.util.Iterator;
import java.util.function.Consumer;

/**
 * The rows of a tracked execution ({@link io.shardset.execution.StatementTracker}), which end
 * its tracking when the last row has been read, when reading fails, or when they are closed,
 * whichever comes first.
 */
final class TrackedRows implements Iterable<Object> {
  private final Iterable<Object> rows;
  /** Told how the execution ended: {@code ok} or {@code error}. */
  private final Consumer<String> ended;

  TrackedRows(Iterable<Object> rows, Consumer<String> ended) {
    this.rows = rows;
    this.ended = ended;
  }

  @Override public Iterator<Object> iterator() {
    final Iterator<Object> started;
    try {
      started = rows.iterator();
    } catch (RuntimeException | Error e) {
      ended.accept("error");
      throw e;
    }
    return new Rows(started);
  }

  /** The rows, watched for their end. */
  private final class Rows implements Iterator<Object>, AutoCloseable {
    private final Iterator<Object> rows;

    Rows(Iterator<Object> rows) {
      this.rows = rows;
    }

    @Override public boolean hasNext() {
      final boolean more;
      try {
        more = rows.hasNext();
      } catch (RuntimeException | Error e) {
        ended.accept("error");
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
      } catch (RuntimeException | Error e) {
        ended.accept("error");
        throw e;
      }
    }

    @Override public void close() throws Exception {
      try {
        if (rows instanceof AutoCloseable closeable) {
          closeable.close();
        }
      } finally {
        ended.accept("ok");
      }
    }
  }
}
