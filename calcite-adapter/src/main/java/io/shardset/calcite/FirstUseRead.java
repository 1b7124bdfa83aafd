package io.shardset.calcite;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A value read from the shards when the planner first asks for it, on the runtime's threads:
 * the first asker waits for it at most {@link #WAIT_MILLIS}, later ones take it if it is there
 * and do not wait; a read that fails or runs long gives the planner's guess, never an error.
 */
final class FirstUseRead<T> {
  /** How long the first planning that asks waits for the shards. */
  static final long WAIT_MILLIS = 2_000;

  private final Supplier<T> read;
  private final Executor threads;
  private final T unknown;
  /** The read, once started; guarded by this. */
  private @Nullable CompletableFuture<T> started;

  /**
   * Creates the read, starting nothing yet.
   *
   * @param read reads the value; runs on {@code threads}
   * @param unknown what the planner is given while there is no value
   */
  FirstUseRead(Supplier<T> read, Executor threads, T unknown) {
    this.read = read;
    this.threads = threads;
    this.unknown = unknown;
  }

  /** The value, or the unknown one while it is not read. */
  T get() {
    final CompletableFuture<T> future;
    final boolean first;
    synchronized (this) {
      first = started == null;
      if (first) {
        started = start();
      }
      future = started;
    }
    try {
      return first ? future.get(WAIT_MILLIS, TimeUnit.MILLISECONDS) : future.getNow(unknown);
    } catch (TimeoutException | ExecutionException e) {
      return unknown;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return unknown;
    }
  }

  private CompletableFuture<T> start() {
    try {
      return CompletableFuture.supplyAsync(read, threads);
    } catch (RejectedExecutionException e) {
      // The runtime is closing: nothing will be planned for long.
      return CompletableFuture.completedFuture(unknown);
    }
  }
}
