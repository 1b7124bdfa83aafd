package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Looks after running scans, every {@value #CHECK_MILLIS} ms, from one daemon thread: cancels
 * the shard statements of scans whose cancel flag is set, and abandons the connections of
 * statements whose shard keeps them waiting past their time limit. Calcite cancels a statement
 * by setting a flag, and a thread that waits inside a JDBC driver can look neither at it nor
 * at the clock. The watch itself never waits for a shard: cancels and aborts run on
 * {@link ShardSignals} threads.
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

  private static final Set<Watched> WATCHED = ConcurrentHashMap.newKeySet();
  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "shardset-cancel-watch");
        thread.setDaemon(true);
        return thread;
      });

  static {
    TIMER.scheduleWithFixedDelay(CancelWatch::check, CHECK_MILLIS, CHECK_MILLIS,
        TimeUnit.MILLISECONDS);
  }

  private CancelWatch() {
  }

  static void watch(Watched scan) {
    WATCHED.add(scan);
  }

  static void unwatch(Watched scan) {
    WATCHED.remove(scan);
  }

  private static void check() {
    long now = System.nanoTime();
    for (Watched scan : WATCHED) {
      try {
        scan.check(now);
      } catch (RuntimeException | Error e) {
        // The watch must outlive any one scan's failure: a scheduled task that throws is
        // never run again, and every later cancel and time limit of the process would hang.
        LOG.debug("canceling a shard statement failed", e);
      }
    }
  }
}
