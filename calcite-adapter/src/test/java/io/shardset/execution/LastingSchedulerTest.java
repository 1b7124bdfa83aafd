package io.shardset.execution;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A periodic task of a {@link LastingScheduler} runs on after a run that threw an
 * {@link OutOfMemoryError} or an exception, where a plain {@code ScheduledThreadPoolExecutor}
 * stops it for good; HikariCP's housekeeping, which catches exceptions only, is such a task.
 */
class LastingSchedulerTest {
  @Test void aPeriodicTaskRunsOnAfterAnOutOfMemoryError() throws Exception {
    final LastingScheduler scheduler = new LastingScheduler("lasting-test");
    try {
      final AtomicInteger runs = new AtomicInteger();
      scheduler.scheduleWithFixedDelay(() -> {
        final int run = runs.incrementAndGet();
        if (run == 1) {
          throw new OutOfMemoryError("Java heap space (thrown by the test)");
        }
        if (run == 2) {
          throw new IllegalStateException("thrown by the test");
        }
      }, 0, 1, TimeUnit.MILLISECONDS);
      await(() -> runs.get() >= 4);
      final AtomicInteger rated = new AtomicInteger();
      scheduler.scheduleAtFixedRate(() -> {
        if (rated.incrementAndGet() == 1) {
          throw new OutOfMemoryError("thrown by the test");
        }
      }, 0, 1, TimeUnit.MILLISECONDS);
      await(() -> rated.get() >= 3);
    } finally {
      scheduler.shutdownNow();
    }
    assertTrue(scheduler.awaitTermination(10, TimeUnit.SECONDS));
  }

  @Test void aPlainExecutorStopsTheTaskForGood() throws Exception {
    // What the runtime's threads would do without it, shown once: the task never runs again.
    final ScheduledThreadPoolExecutor plain = new ScheduledThreadPoolExecutor(1);
    try {
      final AtomicInteger runs = new AtomicInteger();
      final ScheduledFuture<?> task = plain.scheduleWithFixedDelay(() -> {
        runs.incrementAndGet();
        throw new OutOfMemoryError("thrown by the test");
      }, 0, 1, TimeUnit.MILLISECONDS);
      await(task::isDone);
      assertFalse(runs.get() > 1);
    } finally {
      plain.shutdownNow();
    }
  }

  /** Polls until the condition holds, for at most 10 s. */
  private static void await(BooleanSupplier condition) {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "the condition did not hold within 10 s");
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
