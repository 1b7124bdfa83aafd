package io.shardset.execution;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that scans run on, owned by an {@link ExecutionRuntime}: the daemon threads that
 * run shard statements ({@code shardset-scan-N}), the {@link CancelWatch} that looks after
 * running scans, and the {@link ShardSignals} threads that cancel statements and abort
 * connections. Scans reach them through {@link ScanOptions#services()}.
 *
 * <p>The scan threads are a cached pool that grows as needed, not a fixed one: a
 * concatenation's thread holds its thread until the consumer reads its rows, so with a fixed
 * pool, a client that keeps one ResultSet open while it runs another query on the same thread
 * would wait forever for threads held by the unread one. Each scan bounds its own threads
 * ({@link ScanOptions#parallelism()}, see {@link ScanWorkers}), and idle threads end after a
 * minute.
 */
public final class ScanServices implements AutoCloseable {
  private final ExecutorService scanThreads = daemonPool("shardset-scan-");
  private final ShardSignals signals = new ShardSignals(daemonPool("shardset-signal-"));
  private final CancelWatch cancelWatch = new CancelWatch();
  private final ShardMetrics metrics = new ShardMetrics();
  private final StatementTracker statements = new StatementTracker();

  /** Creates the services; threads start as scans need them. */
  public ScanServices() {
  }

  /** The pool that runs the shard statements of every scan. */
  ExecutorService scanThreads() {
    return scanThreads;
  }

  /**
   * The same pool, for short blocking work of the layers above that bounds its own threads,
   * such as reading many shards' metadata at once.
   */
  public Executor threads() {
    return scanThreads;
  }

  /** The meters of the shard statements that run on these services. */
  public ShardMetrics metrics() {
    return metrics;
  }

  /** The client statements that run on these services. */
  public StatementTracker statements() {
    return statements;
  }

  /** The threads that cancel statements and abort connections. */
  ShardSignals signals() {
    return signals;
  }

  /** The watch that cancels and abandons the statements of running scans. */
  CancelWatch cancelWatch() {
    return cancelWatch;
  }

  /**
   * Stops taking work and lets the threads end, without waiting: scans still running finish
   * (no thread is interrupted, which can corrupt JDBC connections and H2 file stores), but can
   * start no new shard statement, cancel or abort.
   */
  @Override public void close() {
    metrics.close();
    cancelWatch.close();
    scanThreads.shutdown();
    signals.close();
  }

  /**
   * Waits at most {@code timeout} for every thread to end after {@link #close()}; true if they
   * all did.
   */
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    final long deadline = System.nanoTime() + unit.toNanos(timeout);
    return cancelWatch.awaitTermination(deadline)
        && scanThreads.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)
        && signals.awaitTermination(deadline);
  }

  private static ExecutorService daemonPool(String prefix) {
    final AtomicInteger counter = new AtomicInteger();
    return Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, prefix + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }
}
