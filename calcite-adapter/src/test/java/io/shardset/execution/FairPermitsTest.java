package io.shardset.execution;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The pool's wait queue: first come, first served, bounded in time, left when not needed. */
class FairPermitsTest {
  private static final long LONG = TimeUnit.SECONDS.toNanos(30);

  @Test void permitsGoToTheLongestWaitingCaller() throws Exception {
    FairPermits permits = new FairPermits(1);
    assertEquals(FairPermits.Outcome.GRANTED, permits.acquire(LONG, () -> false));
    CompletableFuture<FairPermits.Outcome> first = waitFor(permits, () -> false);
    awaitWaiting(permits, 1);
    CompletableFuture<FairPermits.Outcome> second = waitFor(permits, () -> false);
    awaitWaiting(permits, 2);
    permits.release();
    assertEquals(FairPermits.Outcome.GRANTED, first.get(30, TimeUnit.SECONDS));
    assertFalse(second.isDone());
    permits.release();
    assertEquals(FairPermits.Outcome.GRANTED, second.get(30, TimeUnit.SECONDS));
    assertEquals(0, permits.waiting());
  }

  @Test void waitingEndsAfterTheTimeout() {
    FairPermits permits = new FairPermits(1);
    permits.acquire(LONG, () -> false);
    assertEquals(FairPermits.Outcome.TIMED_OUT,
        permits.acquire(TimeUnit.MILLISECONDS.toNanos(50), () -> false));
    assertEquals(0, permits.waiting());
  }

  @Test void aCallerThatStopsLeavesTheQueueAndTheNextOneGetsThePermit() throws Exception {
    FairPermits permits = new FairPermits(1);
    permits.acquire(LONG, () -> false);
    AtomicBoolean stop = new AtomicBoolean();
    CompletableFuture<FairPermits.Outcome> stopping = waitFor(permits, stop::get);
    awaitWaiting(permits, 1);
    CompletableFuture<FairPermits.Outcome> next = waitFor(permits, () -> false);
    awaitWaiting(permits, 2);
    stop.set(true);
    assertEquals(FairPermits.Outcome.STOPPED, stopping.get(30, TimeUnit.SECONDS));
    permits.release();
    assertEquals(FairPermits.Outcome.GRANTED, next.get(30, TimeUnit.SECONDS));
  }

  private static CompletableFuture<FairPermits.Outcome> waitFor(FairPermits permits,
      BooleanSupplier stop) {
    return CompletableFuture.supplyAsync(() -> permits.acquire(LONG, stop));
  }

  private static void awaitWaiting(FairPermits permits, int waiting) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (permits.waiting() != waiting) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("still " + permits.waiting() + " waiting");
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }
}
