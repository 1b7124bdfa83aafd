package io.shardset.execution;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Permits handed out first come, first served, to callers that wait for at most a given time
 * and stop waiting as soon as their scan no longer needs one. A fair semaphore cannot do the
 * latter: a caller that gives up and asks again goes to the back of its queue.
 */
final class FairPermits {
  /** How often a waiting caller asks whether it should stop. */
  private static final long STOP_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /** What became of a request. */
  enum Outcome { GRANTED, TIMED_OUT, STOPPED }

  private final ReentrantLock lock = new ReentrantLock();
  // Guarded by lock.
  private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
  private int available;

  FairPermits(int permits) {
    this.available = permits;
  }

  /** Takes a permit, waiting behind earlier callers for at most {@code timeoutNanos}. */
  Outcome acquire(long timeoutNanos, BooleanSupplier stop) {
    boolean interrupted = false;
    lock.lock();
    try {
      if (available > 0 && queue.isEmpty()) {
        available--;
        return Outcome.GRANTED;
      }
      Waiter waiter = new Waiter(lock.newCondition());
      queue.addLast(waiter);
      long deadline = System.nanoTime() + timeoutNanos;
      while (!waiter.granted) {
        long left = deadline - System.nanoTime();
        boolean stopped = stop.getAsBoolean();
        if (left <= 0 || stopped) {
          queue.remove(waiter);
          return stopped ? Outcome.STOPPED : Outcome.TIMED_OUT;
        }
        try {
          waiter.condition.awaitNanos(Math.min(left, STOP_CHECK_NANOS));
        } catch (InterruptedException e) {
          // Scans stop through their stop condition, not interrupts; keep it for the caller.
          interrupted = true;
        }
      }
      return Outcome.GRANTED;
    } finally {
      lock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Gives a permit back, to the longest waiting caller if there is one. */
  void release() {
    lock.lock();
    try {
      Waiter next = queue.pollFirst();
      if (next == null) {
        available++;
      } else {
        next.granted = true;
        next.condition.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Returns the number of callers waiting now. */
  int waiting() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** One waiting caller. */
  private static final class Waiter {
    final Condition condition;
    boolean granted;

    Waiter(Condition condition) {
      this.condition = condition;
    }
  }
}
