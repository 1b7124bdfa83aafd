package io.shardset.execution;

import io.shardset.util.SuppressForbidden;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * A shard statement while its scan may stop it from another thread: canceled on a signal
 * thread, so that the caller never waits for the shard, and abandoned (its connection's socket
 * closed, the connection taken out of its pool) when the shard does not answer in time.
 *
 * <p>Neither happens once the reading thread has {@link #release() released} it, so a cancel or
 * an abort never reaches a connection that went back to its pool and serves another statement.
 */
final class RunningStatement {
  private static final Logger LOG = LoggerFactory.getLogger(RunningStatement.class);

  /**
   * How long past its time limit a statement may still be reading before it is abandoned: the
   * driver's own timeout, rounded up to whole seconds, comes first when the shard answers.
   */
  static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final ShardEndpoint endpoint;
  private final ShardSignals signals;
  private final Statement statement;
  private final Connection connection;
  /** {@link System#nanoTime()} after which the statement is overdue; unused without limit. */
  private final long deadlineNanos;
  private final boolean limited;

  private final Object lock = new Object();
  // Guarded by lock.
  private boolean released;
  private boolean abandoned;
  private int cancelsInFlight;
  /** Whether the reading thread waits for the consumer, not for the shard. */
  private volatile boolean waitingForConsumer;

  /**
   * Creates the statement of a connection.
   *
   * @param limitMillis the statement's time limit from now, 0 for none
   */
  RunningStatement(ShardEndpoint endpoint, ShardSignals signals, Statement statement,
      Connection connection, long limitMillis) {
    this.endpoint = endpoint;
    this.signals = signals;
    this.statement = statement;
    this.connection = connection;
    this.limited = limitMillis > 0;
    this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMillis);
  }

  ShardEndpoint endpoint() {
    return endpoint;
  }

  Statement statement() {
    return statement;
  }

  /** Says whether the reading thread waits for the consumer rather than for the shard. */
  void waitingForConsumer(boolean waiting) {
    waitingForConsumer = waiting;
  }

  /** Returns whether the shard has kept the statement waiting past its time limit and grace. */
  boolean overdue(long nowNanos) {
    return limited && !waitingForConsumer && nowNanos - deadlineNanos - GRACE_NANOS > 0;
  }

  /** Cancels the statement on a signal thread, unless a cancel is on its way already. */
  @SuppressForbidden(reason = "a guarded block: cancelsInFlight changes under the lock it waits on")
  void cancel() {
    synchronized (lock) {
      if (released || cancelsInFlight > 0) {
        return;
      }
      cancelsInFlight++;
    }
    signals.cancel(endpoint, statement, () -> {
      synchronized (lock) {
        cancelsInFlight--;
        lock.notifyAll();
      }
    });
  }

  /** Abandons the statement's connection once; the reading thread then fails at once. */
  void abandon() {
    synchronized (lock) {
      if (released || abandoned) {
        return;
      }
      abandoned = true;
      LOG.debug("abandoning a connection of shard '{}' that does not answer", endpoint.name());
      endpoint.abandon(connection, signals.executor());
    }
  }

  /** Returns whether the connection was abandoned. */
  boolean abandoned() {
    synchronized (lock) {
      return abandoned;
    }
  }

  /**
   * Ends the statement's exposure to other threads before it is closed: waits until cancels
   * on their way have returned. The driver bounds them (PgJDBC's cancelSignalTimeout).
   */
  @SuppressForbidden(reason = "a guarded block: cancelsInFlight changes under the lock it waits on")
  void release() {
    boolean interrupted = false;
    synchronized (lock) {
      released = true;
      while (cancelsInFlight > 0) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
