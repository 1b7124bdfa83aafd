package io.shardset.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs a list of blocking tasks at most {@code limit} at a time, the calling thread being one
 * of the workers, and returns when all have run. Tasks are expected to catch what they can
 * handle; an unchecked throwable a task lets escape is rethrown once every task has run.
 */
final class BoundedTasks {
  private BoundedTasks() {
  }

  /**
   * Runs every task, on the calling thread and on up to {@code limit - 1} threads of
   * {@code threads}. If {@code threads} refuses work (its runtime closing), the calling thread
   * runs what is left.
   */
  static void run(List<Runnable> tasks, Executor threads, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
    final Queue<Runnable> pending = new ConcurrentLinkedQueue<>(tasks);
    final Runnable worker = () -> {
      for (Runnable task = pending.poll(); task != null; task = pending.poll()) {
        task.run();
      }
    };
    final List<CompletableFuture<Void>> helpers = new ArrayList<>();
    try {
      for (int i = 1; i < Math.min(limit, tasks.size()); i++) {
        helpers.add(CompletableFuture.runAsync(worker, threads));
      }
    } catch (RejectedExecutionException e) {
      // The calling thread does the rest.
    }
    RuntimeException failure = null;
    try {
      worker.run();
    } catch (RuntimeException e) {
      failure = e;
    }
    // Each task's waits are bounded by the shard settings it reads under (connectTimeout,
    // socketTimeout), so these joins are too.
    for (CompletableFuture<Void> helper : helpers) {
      try {
        helper.join();
      } catch (CompletionException e) {
        if (failure == null) {
          failure = e.getCause() instanceof RuntimeException r ? r : e;
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
