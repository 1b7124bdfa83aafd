package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The daemon threads of a runtime's {@link ScanServices} that cancel shard statements and abort
 * shard connections, so that the thread asking never waits for a shard: a cancel opens a new
 * connection to the shard (PostgreSQL, MariaDB), which blocks for as long as the shard does not
 * answer.
 */
final class ShardSignals {
  private static final Logger LOG = LoggerFactory.getLogger(ShardSignals.class);

  private final ExecutorService executor;

  ShardSignals(ExecutorService executor) {
    this.executor = executor;
  }

  /** The executor that {@link Connection#abort} runs its work on. */
  Executor executor() {
    return executor;
  }

  /** Cancels a statement on a signal thread; {@code done} runs afterwards, whatever happened. */
  void cancel(ShardEndpoint endpoint, Statement statement, Runnable done) {
    try {
      executor.execute(() -> {
        try {
          statement.cancel();
        } catch (SQLException | RuntimeException e) {
          LOG.debug("canceling a statement on shard '{}' failed: {}", endpoint.name(),
              endpoint.redact(String.valueOf(e.getMessage())));
        } finally {
          done.run();
        }
      });
    } catch (RejectedExecutionException e) {
      // The runtime closed; the statement's own time limits and pool's closing remain.
      LOG.debug("not canceling a statement on shard '{}': the runtime is closed",
          endpoint.name());
      done.run();
    }
  }

  /** Takes no more signals; those on their way finish. */
  void close() {
    executor.shutdown();
  }

  /** Waits until {@code deadlineNanos} ({@link System#nanoTime()}) for the threads to end. */
  boolean awaitTermination(long deadlineNanos) throws InterruptedException {
    return executor.awaitTermination(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
  }
}
