package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads of one scan: at most {@code limit} threads of the runtime's scan pool
 * ({@link ScanServices#scanThreads()}), started together, that
 * run the scan's shard tasks in the order they are submitted.
 *
 * <p>A concatenation submits one task per request and {@link #retire retires} the workers at
 * once: each runs tasks until none is left, as a producer takes the next pending request. A
 * merge submits short tasks (fill one shard's buffer) again whenever the consumer drains a
 * buffer, so its workers wait for tasks until it retires them; the threads a merge holds are
 * then its limit, however many shards it reads.
 */
final class ScanWorkers {
  private final Executor threads;
  private final int limit;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Guarded by lock.
  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
  private boolean retired;
  private boolean stopped;
  private int peakRunningTasks;
  private int runningTasks;

  /**
   * Creates workers of at most {@code limit} threads of {@code threads}; none runs before
   * {@link #start}.
   */
  ScanWorkers(Executor threads, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
    this.threads = threads;
    this.limit = limit;
  }

  /**
   * Queues the first tasks and starts one worker per task, up to the limit.
   *
   * @throws RejectedExecutionException if a thread cannot be started; the workers are stopped
   */
  void start(List<Runnable> initial) {
    int workers;
    lock.lock();
    try {
      tasks.addAll(initial);
      workers = Math.min(limit, initial.size());
    } finally {
      lock.unlock();
    }
    for (int i = 0; i < workers; i++) {
      try {
        threads.execute(this::work);
      } catch (RejectedExecutionException e) {
        stop();
        throw e;
      }
    }
  }

  /** Queues a task behind the others; dropped once the workers stopped. */
  void submit(Runnable task) {
    lock.lock();
    try {
      if (!stopped) {
        tasks.addLast(task);
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Says that no task comes any more: workers end once the queue is empty. */
  void retire() {
    lock.lock();
    try {
      retired = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Drops the queued tasks; workers end once their running task returns. */
  void stop() {
    lock.lock();
    try {
      stopped = true;
      tasks.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Returns the most tasks that ran at once. */
  int peakRunningTasks() {
    lock.lock();
    try {
      return peakRunningTasks;
    } finally {
      lock.unlock();
    }
  }

  /** The body of a worker thread. */
  private void work() {
    @Nullable Runnable task;
    while ((task = next()) != null) {
      try {
        task.run();
      } finally {
        lock.lock();
        try {
          runningTasks--;
        } finally {
          lock.unlock();
        }
      }
    }
  }

  /** Returns the next task, waiting for one while the workers are neither retired nor stopped. */
  private @Nullable Runnable next() {
    lock.lock();
    try {
      while (tasks.isEmpty() && !retired && !stopped) {
        changed.awaitUninterruptibly();
      }
      @Nullable Runnable task = stopped ? null : tasks.pollFirst();
      if (task == null) {
        return null;
      }
      runningTasks++;
      peakRunningTasks = Math.max(peakRunningTasks, runningTasks);
      return task;
    } finally {
      lock.unlock();
    }
  }
}
