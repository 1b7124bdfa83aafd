package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Cancels the shard statements of scans that run on their caller's thread once their cancel
 * flag is set. Calcite cancels a statement by setting a flag, and a thread that waits inside a
 * JDBC driver cannot look at it; one daemon thread looks for them, every
 * {@value #CHECK_MILLIS} ms, the same delay after which a waiting parallel scan notices.
 */
final class CancelWatch {
  private static final Logger LOG = LoggerFactory.getLogger(CancelWatch.class);

  /** How often the watch looks at the cancel flags. */
  static final long CHECK_MILLIS = 100;

  /** A scan the watch looks after while it has a statement running. */
  interface Watched {
    /** Whether the scan's cancel flag is set. */
    boolean cancelRequested();

    /** Cancels the scan's running statement, if any. */
    void cancelRunning();
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
    for (Watched scan : WATCHED) {
      try {
        if (scan.cancelRequested()) {
          scan.cancelRunning();
        }
      } catch (RuntimeException e) {
        // The watch must outlive any one scan's failure.
        LOG.debug("canceling a shard statement failed", e);
      }
    }
  }
}
