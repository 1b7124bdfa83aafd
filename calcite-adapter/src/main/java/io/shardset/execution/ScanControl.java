package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How one scan stops, whatever thread reads its shards: the consumer's own (a scan of one
 * shard) or scan threads. It knows the shard statements running, the threads reading a shard
 * cursor now ("readers"), and the first failure; on close, failure or cancel it cancels every
 * running statement, and {@link #close()} waits until no reader is left.
 *
 * <p>While a statement runs, the runtime's {@link CancelWatch} looks after the scan: it stops the scan when
 * the cancel flag is set, and abandons the connection of a statement its shard keeps waiting
 * past its time limit, so that the reading thread fails at once. No thread is ever
 * interrupted: that can corrupt JDBC connections and H2 file stores.
 */
final class ScanControl implements ShardCursor.Registry, CancelWatch.Watched {
  private static final Logger LOG = LoggerFactory.getLogger(ScanControl.class);

  /** How long {@link #close()} waits for readers before it logs a warning and returns. */
  static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

  /**
   * How often {@link #close()} cancels the statements still running while it waits. Drivers
   * ignore a cancel that arrives before the statement executes (PgJDBC does), so one cancel can
   * be lost to a reader that registered its statement but had not yet sent it.
   */
  static final long RECANCEL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /**
   * How long {@link #close()} waits for statements to end after it canceled them, before it
   * abandons their connections: a shard that does not answer ignores the cancel.
   */
  static final long ABANDON_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final ScanOptions options;
  /** {@link System#nanoTime()} at which the query times out; unused without timeout. */
  private final long deadlineNanos;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition readersDone = lock.newCondition();
  // Guarded by lock; closed is also read without it.
  private volatile boolean closed;
  private int readers;
  private int startedRequests;
  /** In the order they started; a statement is equal only to itself. */
  private final Set<RunningStatement> runningStatements = new LinkedHashSet<>();
  private final List<Runnable> stopListeners = new ArrayList<>();
  // Written under lock, read without it.
  private volatile @Nullable ShardException failure;
  /** An error of the process (out of memory) on a scan thread: not the shard's failure. */
  private volatile @Nullable Error error;

  ScanControl(ScanOptions options) {
    this.options = options;
    this.deadlineNanos =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.timeout().leftMillis());
  }

  ScanOptions options() {
    return options;
  }

  /** {@link System#nanoTime()} at which the query times out; unused without timeout. */
  long deadlineNanos() {
    return deadlineNanos;
  }

  /** Runs {@code listener} once when the scan stops (close, failure or cancel). */
  void onStop(Runnable listener) {
    lock.lock();
    try {
      stopListeners.add(listener);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Announces a thread that is about to read a shard cursor; false, and it must not, once the
   * scan stopped. Every true is followed by one {@link #exitReader()}.
   */
  boolean enterReader() {
    lock.lock();
    try {
      if (closed) {
        return false;
      }
      readers++;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Says that a reader let go of its cursor. Returns whether the scan stopped meanwhile: the
   * reader then releases its cursor, which {@link #close()} may have given up waiting for.
   */
  boolean exitReader() {
    lock.lock();
    try {
      if (--readers == 0) {
        readersDone.signalAll();
      }
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /** Counts a request sent to a shard. */
  void requestStarted() {
    lock.lock();
    try {
      startedRequests++;
    } finally {
      lock.unlock();
    }
  }

  /** Returns the number of requests sent to a shard so far; the others were never started. */
  int startedRequests() {
    lock.lock();
    try {
      return startedRequests;
    } finally {
      lock.unlock();
    }
  }

  /** Returns whether the scan was closed, failed or canceled. */
  boolean isClosed() {
    return closed;
  }

  /** Returns whether the cancel flag of the scan is set. */
  boolean cancelRequested() {
    return options.cancelRequested();
  }

  /** Returns the first shard failure of a scan thread, or null. */
  @Nullable ShardException failure() {
    return failure;
  }

  /** Returns the error (out of memory) that stopped a scan thread, or null. */
  @Nullable Error error() {
    return error;
  }

  /**
   * Records what a scan thread's read of a shard threw and stops the scan; failures after a
   * stop are the scan's own cancels. Out of memory is the process's failure, wherever it
   * struck, not the shard's.
   */
  void fail(ShardEndpoint endpoint, Throwable cause) {
    lock.lock();
    try {
      if (closed) {
        LOG.debug("shard '{}' failed after the scan stopped: {}", endpoint.name(),
            endpoint.redact(String.valueOf(cause.getMessage())));
        return;
      }
      if (cause instanceof VirtualMachineError vmError) {
        error = vmError;
      } else {
        // A fallback shard's failure names that shard already.
        failure = cause instanceof ShardException named ? named
            : ShardException.of(endpoint, cause);
      }
      stop();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops the scan: starts no more reads, cancels running shard statements, and waits until
   * every reader has let go of its cursor, cancelling again every {@link #RECANCEL_NANOS} and
   * abandoning the connections after {@link #ABANDON_AFTER_NANOS}. Idempotent, and safe to call
   * from any thread.
   */
  void close() {
    boolean interrupted = false;
    lock.lock();
    try {
      stop();
      long begun = System.nanoTime();
      long deadline = begun + CLOSE_WAIT_NANOS;
      long left = CLOSE_WAIT_NANOS;
      while (readers > 0 && left > 0) {
        try {
          readersDone.awaitNanos(Math.min(left, RECANCEL_NANOS));
        } catch (InterruptedException e) {
          interrupted = true;
        }
        if (System.nanoTime() - begun > ABANDON_AFTER_NANOS) {
          runningStatements.forEach(RunningStatement::abandon);
        } else {
          runningStatements.forEach(RunningStatement::cancel);
        }
        left = deadline - System.nanoTime();
      }
      if (readers > 0) {
        LOG.warn("{} shard reads still running {} s after the scan closed; they return "
            + "their connections when their drivers give up", readers,
            TimeUnit.NANOSECONDS.toSeconds(CLOSE_WAIT_NANOS));
      }
    } finally {
      lock.unlock();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Returns whether no reader holds a cursor now; after {@link #close()}, none will again. */
  boolean noReaders() {
    lock.lock();
    try {
      return readers == 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Marks the scan closed, tells the listeners (which wake waiting threads) and cancels every
   * running statement. Cancels run on signal threads; a reader releasing its statement waits
   * for them (see {@link RunningStatement#release()}), so none reaches a returned connection.
   */
  void stop() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      stopListeners.forEach(Runnable::run);
      runningStatements.forEach(RunningStatement::cancel);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops the scan when its cancel flag is set or its query's time is up, and abandons the
   * connections of statements whose shard kept them waiting past their time limit; their
   * readers then fail at once with the limit that elapsed, instead of waiting for a shard that
   * does not answer.
   *
   * <p>The query's time counts whatever the statements wait for: a driver's own timeout
   * covers only the execution of a statement, not the fetches of a result streamed to a
   * consumer that takes its time, and it is rounded up to whole seconds.
   */
  @Override public void check(long nowNanos) {
    if (options.cancelRequested()) {
      stop();
    }
    List<RunningStatement> overdue;
    lock.lock();
    try {
      if (!closed && options.timeout().limited() && nowNanos - deadlineNanos >= 0
          && !runningStatements.isEmpty()) {
        // Named after the shard that has run longest: the one the query still waits for.
        ShardEndpoint waitedFor = runningStatements.iterator().next().endpoint();
        fail(waitedFor, options.timeout().elapsed(""));
        return;
      }
      overdue = runningStatements.stream().filter(s -> s.overdue(nowNanos)).toList();
    } finally {
      lock.unlock();
    }
    overdue.forEach(RunningStatement::abandon);
  }

  @Override public boolean register(RunningStatement statement) {
    lock.lock();
    try {
      if (closed) {
        return false;
      }
      if (runningStatements.isEmpty()) {
        options.services().cancelWatch().watch(this);
      }
      return runningStatements.add(statement);
    } finally {
      lock.unlock();
    }
  }

  @Override public void unregister(RunningStatement statement) {
    lock.lock();
    try {
      if (runningStatements.remove(statement) && runningStatements.isEmpty()) {
        options.services().cancelWatch().unwatch(this);
      }
    } finally {
      lock.unlock();
    }
  }

  @Override public boolean stopped() {
    return closed;
  }
}
