package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The enumerator of a {@link ParallelScan}: starts producers on the first {@link #moveNext()},
 * hands their batches to the consumer, and on close, failure or cancel stops every shard
 * statement and waits until each producer has returned its connection.
 */
final class ScanEnumerator implements Enumerator<@Nullable Object[]> {
  private static final Logger LOG = LoggerFactory.getLogger(ScanEnumerator.class);

  /** How long {@link #close()} waits for producers before it logs a warning and returns. */
  static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final List<ShardRequest> requests;
  private final ScanOptions options;
  private final BoundedBuffer<List<@Nullable Object[]>> buffer;
  private final ShardStream stream;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition producersDone = lock.newCondition();
  // Written under lock; closed is also read by the consumer without it.
  private boolean started;
  private volatile boolean closed;
  private int nextRequest;
  private int runningProducers;
  private final Set<Statement> runningStatements =
      Collections.newSetFromMap(new IdentityHashMap<>());
  // Written under lock, read by the consumer without it.
  private volatile @Nullable ShardException failure;

  // Consumer state.
  private List<@Nullable Object[]> batch = List.of();
  private int position;
  private @Nullable Object @Nullable [] current;
  private boolean exhausted;

  ScanEnumerator(List<ShardRequest> requests, RowReader rowReader, ScanOptions options) {
    this.requests = List.copyOf(requests);
    this.options = Objects.requireNonNull(options, "options");
    this.buffer = new BoundedBuffer<>(options.bufferBatches());
    long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis());
    this.stream = new ShardStream(new ScanSink(), Objects.requireNonNull(rowReader, "rowReader"),
        options, deadlineNanos);
  }

  @Override public @Nullable Object[] current() {
    if (current == null) {
      throw new NoSuchElementException("no current row");
    }
    return current;
  }

  @Override public boolean moveNext() {
    if (exhausted) {
      return false;
    }
    checkCanceled();
    throwIfFailed();
    if (closed) {
      exhausted = true;
      current = null;
      return false;
    }
    start();
    while (position == batch.size()) {
      List<@Nullable Object[]> next = takeBatch();
      if (next == null) {
        exhausted = true;
        current = null;
        throwIfFailed();
        checkCanceled();
        return false;
      }
      batch = next;
      position = 0;
    }
    current = batch.get(position++);
    return true;
  }

  @Override public void reset() {
    throw new UnsupportedOperationException("a shard scan cannot be reset");
  }

  /**
   * Stops the scan: discards buffered rows, cancels running shard statements, starts no more
   * requests, and waits until every producer has closed its result set, statement and
   * connection. Idempotent, and safe to call from any thread.
   */
  @Override public void close() {
    boolean interrupted = false;
    lock.lock();
    try {
      shutDown();
      long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
      long left = CLOSE_WAIT_NANOS;
      while (runningProducers > 0 && left > 0) {
        try {
          producersDone.awaitNanos(left);
        } catch (InterruptedException e) {
          interrupted = true;
        }
        left = deadline - System.nanoTime();
      }
      if (runningProducers > 0) {
        LOG.warn("{} shard producers still running {} s after the scan closed; they return "
            + "their connections when their drivers give up", runningProducers,
            TimeUnit.NANOSECONDS.toSeconds(CLOSE_WAIT_NANOS));
      }
    } finally {
      lock.unlock();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Returns the number of requests sent to a shard so far; the others were never started. */
  int startedRequests() {
    lock.lock();
    try {
      return nextRequest;
    } finally {
      lock.unlock();
    }
  }

  /** Returns the number of batches buffered now. */
  int bufferedBatches() {
    return buffer.size();
  }

  /** Returns the largest number of batches buffered at once. */
  int peakBufferedBatches() {
    return buffer.peakSize();
  }

  private void start() {
    int producers;
    lock.lock();
    try {
      if (started || closed) {
        return;
      }
      started = true;
      producers = Math.min(options.parallelism(), requests.size());
      runningProducers = producers;
      if (producers == 0) {
        buffer.finish();
        return;
      }
    } finally {
      lock.unlock();
    }
    for (int i = 0; i < producers; i++) {
      try {
        ScanThreads.executor().execute(this::produce);
      } catch (RejectedExecutionException e) {
        exhausted = true;
        shutDown();
        for (int j = i; j < producers; j++) {
          producerExited();
        }
        throw e;
      }
    }
  }

  /** The body of a producer thread: runs pending requests until none is left or the scan stops. */
  private void produce() {
    try {
      ShardRequest request;
      while ((request = nextRequest()) != null) {
        try {
          stream.run(request);
        } catch (SQLException | RuntimeException e) {
          fail(request.endpoint(), e);
        } catch (Error e) {
          fail(request.endpoint(), e);
          throw e;
        }
      }
    } finally {
      producerExited();
    }
  }

  private @Nullable ShardRequest nextRequest() {
    lock.lock();
    try {
      return closed || nextRequest == requests.size() ? null : requests.get(nextRequest++);
    } finally {
      lock.unlock();
    }
  }

  private void producerExited() {
    lock.lock();
    try {
      if (--runningProducers == 0) {
        if (!closed) {
          buffer.finish();
        }
        producersDone.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Records the first failure and stops the scan; failures after a stop are our own cancels. */
  private void fail(ShardEndpoint endpoint, Throwable cause) {
    lock.lock();
    try {
      if (closed) {
        LOG.debug("shard '{}' failed after the scan stopped: {}", endpoint.name(),
            endpoint.redact(String.valueOf(cause.getMessage())));
        return;
      }
      failure = ShardException.of(endpoint, cause);
      shutDown();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Marks the scan closed, discards the buffer (waking producers and consumer) and cancels every
   * running statement. Cancels happen under the lock, so that a producer cannot close its
   * statement, and return its connection to the pool, while it is being canceled.
   */
  private void shutDown() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      buffer.close();
      for (Statement statement : runningStatements) {
        try {
          statement.cancel();
        } catch (SQLException | RuntimeException e) {
          LOG.debug("canceling a shard statement failed", e);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private @Nullable List<@Nullable Object[]> takeBatch() {
    try {
      return buffer.take();
    } catch (InterruptedException e) {
      exhausted = true;
      close();
      Thread.currentThread().interrupt();
      throw new CancellationException("Statement canceled: the reading thread was interrupted");
    }
  }

  private void throwIfFailed() {
    ShardException e = failure;
    if (e != null) {
      exhausted = true;
      close();
      throw e;
    }
  }

  private void checkCanceled() {
    if (options.cancelRequested()) {
      exhausted = true;
      close();
      throw new CancellationException("Statement canceled");
    }
  }

  /** The producers' view of this scan. */
  private final class ScanSink implements ShardStream.Sink {
    @Override public boolean register(Statement statement) {
      lock.lock();
      try {
        return !closed && runningStatements.add(statement);
      } finally {
        lock.unlock();
      }
    }

    @Override public void unregister(Statement statement) {
      lock.lock();
      try {
        runningStatements.remove(statement);
      } finally {
        lock.unlock();
      }
    }

    @Override public boolean offer(List<@Nullable Object[]> rows) {
      if (options.cancelRequested()) {
        // Wake the consumer, which reports the cancel.
        shutDown();
        return false;
      }
      return buffer.put(rows);
    }
  }
}
