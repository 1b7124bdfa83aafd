package io.shardset.execution;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process-wide pool of daemon threads that run shard statements for every scan.
 *
 * <p>It is a cached pool that grows as needed, not a fixed one: a concatenation's thread holds
 * its thread until the consumer reads its rows, so with a fixed pool, a client that keeps one
 * ResultSet open while it runs another query on the same thread would wait forever for threads
 * held by the unread one. Each scan bounds its own threads ({@link ScanOptions#parallelism()},
 * see {@link ScanWorkers}), and idle threads end after a minute.
 */
final class ScanThreads {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private static final ExecutorService EXECUTOR = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "shardset-scan-" + COUNTER.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  });

  private ScanThreads() {
  }

  static ExecutorService executor() {
    return EXECUTOR;
  }
}
