package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Looks after running scans, every {@value #CHECK_MILLIS} ms, from one daemon thread: cancels
 * the shard statements of scans whose cancel flag is set, and abandons the connections of
 * statements whose shard keeps them waiting past their time limit. Calcite cancels a statement
 * by setting a flag, and a thread that waits inside a JDBC driver can look neither at it nor
 * at the clock. The watch itself never waits for a shard: cancels and aborts run on
 * {@link ShardSignals} threads. One watch serves a runtime's scans (see {@link ScanServices}).
 */
final class CancelWatch {
  private static final Logger LOG = LoggerFactory.getLogger(CancelWatch.class);

  /** How often the watch looks at the cancel flags. */
  static final long CHECK_MILLIS = 100;

  /** A scan the watch looks after while it has a statement running. */
  interface Watched {
    /** Cancels what the cancel flag asks for, abandons what is overdue at {@code nowNanos}. */
    void check(long nowNanos);
  }

  private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer = new LastingScheduler("shardset-cancel-watch");

  /** Written under this; read without it on every watch, which must not take the lock. */
  private volatile boolean started;
  /** Guarded by this. */
  private boolean closed;

  /** Creates the watch; its thread starts with the first scan it looks after. */
  CancelWatch() {
  }

  void watch(Watched scan) {
    // Started on first use, as a runtime that never scans needs no thread.
    if (watched.add(scan) && !started) {
      startOnce();
    }
  }

  void unwatch(Watched scan) {
    watched.remove(scan);
  }

  /** Stops the watch's thread; scans still running are no longer looked after. */
  void close() {
    synchronized (this) {
      closed = true;
    }
    timer.shutdownNow();
  }

  /** Waits until {@code deadlineNanos} ({@link System#nanoTime()}) for the thread to end. */
  boolean awaitTermination(long deadlineNanos) throws InterruptedException {
    return timer.awaitTermination(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
  }

  private synchronized void startOnce() {
    if (!started && !closed) {
      started = true;
      timer.scheduleWithFixedDelay(this::check, CHECK_MILLIS, CHECK_MILLIS,
          TimeUnit.MILLISECONDS);
    }
  }

  private void check() {
    long now = System.nanoTime();
    for (Watched scan : watched) {
      try {
        scan.check(now);
      } catch (RuntimeException | Error e) {
        // The watch must outlive any one scan's failure: a scheduled task that throws is
        // never run again, and every later cancel and time limit of the runtime would hang.
        LOG.debug("canceling a shard statement failed", e);
      }
    }
  }
}
