package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose periodic tasks outlast their failures. A {@link ScheduledThreadPoolExecutor}
 * never runs a periodic task again once a run of it threw, silently; so one
 * {@link OutOfMemoryError} anywhere in the process (a sort of a big result on another thread
 * leaves no memory for the sweeper's next allocation) would stop, for the life of the process,
 * the sweeping of abandoned scans, the cancel watch, a pool's housekeeping (HikariCP's task
 * catches exceptions only) or the deadlock checks. Here a run that throws anything is logged
 * and the task runs again at its next time.
 *
 * <p>Its threads are daemons named {@code name}; one thread unless told otherwise.
 */
public final class LastingScheduler extends ScheduledThreadPoolExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(LastingScheduler.class);

  private final String name;

  /** A scheduler of one daemon thread called {@code name}. */
  public LastingScheduler(String name) {
    super(1, runnable -> {
      final Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    });
    this.name = name;
  }

  @Override public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command,
      long initialDelay, long delay, TimeUnit unit) {
    return super.scheduleWithFixedDelay(lasting(command), initialDelay, delay, unit);
  }

  @Override public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay,
      long period, TimeUnit unit) {
    return super.scheduleAtFixedRate(lasting(command), initialDelay, period, unit);
  }

  private Runnable lasting(Runnable command) {
    return () -> {
      try {
        command.run();
      } catch (Throwable e) {
        // Not rethrown: the executor would cancel the task for good. An interrupt is kept
        // for the executor, which interrupts its threads when it shuts down.
        try {
          LOG.warn("a periodic task of {} failed; it runs again at its next time", name, e);
        } catch (Throwable logging) {
          // Out of memory even for the message: the next run tries again all the same.
        }
      }
    };
  }
}
