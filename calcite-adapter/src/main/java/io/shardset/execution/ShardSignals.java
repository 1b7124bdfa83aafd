package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process-wide daemon threads that cancel shard statements and abort shard connections, so
 * that the thread asking never waits for a shard: a cancel opens a new connection to the shard
 * (PostgreSQL, MariaDB), which blocks for as long as the shard does not answer.
 */
final class ShardSignals {
  private static final Logger LOG = LoggerFactory.getLogger(ShardSignals.class);
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private static final ExecutorService EXECUTOR = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "shardset-signal-" + COUNTER.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  });

  private ShardSignals() {
  }

  /** The executor that {@link Connection#abort} runs its work on. */
  static Executor executor() {
    return EXECUTOR;
  }

  /** Cancels a statement on a signal thread; {@code done} runs afterwards, whatever happened. */
  static void cancel(ShardEndpoint endpoint, Statement statement, Runnable done) {
    EXECUTOR.execute(() -> {
      try {
        statement.cancel();
      } catch (SQLException | RuntimeException e) {
        LOG.debug("canceling a statement on shard '{}' failed: {}", endpoint.name(),
            endpoint.redact(String.valueOf(e.getMessage())));
      } finally {
        done.run();
      }
    });
  }
}
