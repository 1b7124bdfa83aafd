package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import java.util.Objects;

/**
 * Rows that run an action when they end and one when they close: what the wrappers of a scan's
 * rows need (a model ticket confirmed at the end and ended at close, connection reservations
 * given back, an execution's unread scans closed).
 *
 * @param <T> the row type
 */
public final class EndingEnumerator<T> implements Enumerator<T> {
  private final Enumerator<T> rows;
  private final Runnable atEnd;
  private final Runnable atClose;

  private EndingEnumerator(Enumerator<T> rows, Runnable atEnd, Runnable atClose) {
    this.rows = Objects.requireNonNull(rows, "rows");
    this.atEnd = Objects.requireNonNull(atEnd, "atEnd");
    this.atClose = Objects.requireNonNull(atClose, "atClose");
  }

  /**
   * The rows, running {@code atEnd} each time {@code moveNext()} finds no more, and
   * {@code atClose} after they close, even if closing them fails.
   */
  public static <T> Enumerator<T> of(Enumerator<T> rows, Runnable atEnd, Runnable atClose) {
    return new EndingEnumerator<>(rows, atEnd, atClose);
  }

  /** The rows, running {@code atClose} after they close, even if closing them fails. */
  public static <T> Enumerator<T> closing(Enumerator<T> rows, Runnable atClose) {
    return new EndingEnumerator<>(rows, () -> { }, atClose);
  }

  @Override public T current() {
    return rows.current();
  }

  @Override public boolean moveNext() {
    final boolean more = rows.moveNext();
    if (!more) {
      atEnd.run();
    }
    return more;
  }

  @Override public void reset() {
    rows.reset();
  }

  @Override public void close() {
    try {
      rows.close();
    } finally {
      atClose.run();
    }
  }
}
