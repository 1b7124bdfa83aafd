package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A bounded FIFO buffer between many producers and one consumer that can be finished (no more
 * items) or closed (discard everything and wake every waiting thread).
 *
 * <p>Waiting threads are woken by {@link #close()}, never by {@code Thread.interrupt()}:
 * interrupting a thread inside a JDBC driver can corrupt its connection or an H2 file store.
 * Producers therefore wait uninterruptibly.
 *
 * @param <T> item type
 */
final class BoundedBuffer<T> {
  /** How often a waiting consumer looks at its stop condition. */
  static final long STOP_CHECK_MILLIS = 100;

  private final int capacity;
  private final ArrayDeque<T> items;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notFull = lock.newCondition();
  private final Condition notEmpty = lock.newCondition();

  // All guarded by lock.
  private boolean finished;
  private boolean closed;
  private int peakSize;

  BoundedBuffer(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    this.capacity = capacity;
    this.items = new ArrayDeque<>(capacity);
  }

  /**
   * Adds an item, waiting while the buffer is full. Returns false, without adding, once the
   * buffer is closed.
   */
  boolean put(T item) {
    Objects.requireNonNull(item, "item");
    lock.lock();
    try {
      while (!closed && items.size() == capacity) {
        notFull.awaitUninterruptibly();
      }
      if (closed) {
        return false;
      }
      if (finished) {
        throw new IllegalStateException("put after finish");
      }
      items.addLast(item);
      peakSize = Math.max(peakSize, items.size());
      notEmpty.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes the oldest item, waiting while the buffer is empty. Returns null once the buffer is
   * closed, or finished and empty.
   */
  @Nullable T take() throws InterruptedException {
    return take(() -> false);
  }

  /**
   * Like {@link #take()}, but while it waits it asks {@code stop} every
   * {@value #STOP_CHECK_MILLIS} ms and returns null as soon as it says so. A cancel flag that
   * nothing signals (Calcite's is a plain AtomicBoolean) reaches a consumer waiting for a
   * silent shard this way.
   */
  @Nullable T take(BooleanSupplier stop) throws InterruptedException {
    lock.lock();
    try {
      while (!closed && !finished && items.isEmpty()) {
        if (stop.getAsBoolean()) {
          return null;
        }
        notEmpty.await(STOP_CHECK_MILLIS, TimeUnit.MILLISECONDS);
      }
      if (closed || items.isEmpty()) {
        return null;
      }
      T item = items.removeFirst();
      notFull.signal();
      return item;
    } finally {
      lock.unlock();
    }
  }

  /** Declares that no more items come; the consumer drains what is buffered, then gets null. */
  void finish() {
    lock.lock();
    try {
      finished = true;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Discards buffered items and wakes every waiting producer and the consumer. Idempotent. */
  void close() {
    lock.lock();
    try {
      closed = true;
      items.clear();
      notFull.signalAll();
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Returns the number of buffered items. */
  int size() {
    lock.lock();
    try {
      return items.size();
    } finally {
      lock.unlock();
    }
  }

  /** Returns the largest number of items the buffer has held at once. */
  int peakSize() {
    lock.lock();
    try {
      return peakSize;
    } finally {
      lock.unlock();
    }
  }
}
