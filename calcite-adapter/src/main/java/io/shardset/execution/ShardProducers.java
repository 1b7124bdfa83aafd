package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The producer side of a shard scan: runs shard requests on {@link ScanThreads}, streams their
 * rows into bounded buffers, and on close, failure or cancel stops every shard statement and
 * waits until each producer has returned its connection.
 *
 * <p>Each producer works one {@link Lane}. Lanes may share their requests and their buffer: a
 * concatenation runs a few lanes over one list of requests into one buffer, a merge one lane per
 * request, each into its own buffer. A buffer is finished once every lane that writes into it is
 * done, and closed when the scan stops.
 */
final class ShardProducers implements CancelWatch.Watched {
  private static final Logger LOG = LoggerFactory.getLogger(ShardProducers.class);

  /** How long {@link #close()} waits for producers before it logs a warning and returns. */
  static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

  /**
   * How often {@link #close()} cancels the statements still running while it waits. Drivers
   * ignore a cancel that arrives before the statement executes (PgJDBC does), so one cancel can
   * be lost to a producer that registered its statement but had not yet sent it.
   */
  static final long RECANCEL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /**
   * How long {@link #close()} waits for statements to end after it canceled them, before it
   * abandons their connections: a shard that does not answer ignores the cancel.
   */
  static final long ABANDON_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

  /**
   * The work of one producer: the requests it runs one after another, and the buffer that
   * receives their rows. The iterator is only used under the producers' lock, so lanes may share
   * it.
   */
  record Lane(Iterator<ShardRequest> requests, BoundedBuffer<List<@Nullable Object[]>> buffer) {
    Lane {
      Objects.requireNonNull(requests, "requests");
      Objects.requireNonNull(buffer, "buffer");
    }
  }

  private final List<Lane> lanes;
  private final RowReader rowReader;
  private final ScanOptions options;
  /** {@link System#nanoTime()} at which the query times out; unused without timeout. */
  private final long deadlineNanos;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition producersDone = lock.newCondition();
  // Guarded by lock; closed is also read without it.
  private boolean started;
  private volatile boolean closed;
  private int startedRequests;
  private int runningProducers;
  /** Lanes not yet done, per buffer. */
  private final Map<BoundedBuffer<List<@Nullable Object[]>>, Integer> openLanes =
      new IdentityHashMap<>();
  private final Set<RunningStatement> runningStatements =
      Collections.newSetFromMap(new IdentityHashMap<>());
  // Written under lock, read without it.
  private volatile @Nullable ShardException failure;
  /** An error of the process (out of memory) on a producer thread: not the shard's failure. */
  private volatile @Nullable Error error;

  /**
   * Creates the producers of a scan; nothing runs before {@link #start()}.
   *
   * @param buffers every buffer of the scan; one without lanes is finished on start
   * @param lanes one per producer, writing into some of {@code buffers}
   */
  ShardProducers(List<BoundedBuffer<List<@Nullable Object[]>>> buffers, List<Lane> lanes,
      RowReader rowReader, ScanOptions options) {
    this.lanes = List.copyOf(lanes);
    this.rowReader = Objects.requireNonNull(rowReader, "rowReader");
    this.options = Objects.requireNonNull(options, "options");
    this.deadlineNanos =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis());
    for (BoundedBuffer<List<@Nullable Object[]>> buffer : buffers) {
      openLanes.put(buffer, 0);
    }
    for (Lane lane : this.lanes) {
      if (openLanes.computeIfPresent(lane.buffer(), (buffer, count) -> count + 1) == null) {
        throw new IllegalArgumentException("a lane writes into a buffer the scan does not own");
      }
    }
  }

  /** Starts one producer per lane; does nothing if they started already or the scan closed. */
  void start() {
    lock.lock();
    try {
      if (started || closed) {
        return;
      }
      started = true;
      runningProducers = lanes.size();
      if (runningProducers > 0) {
        CancelWatch.watch(this);
      }
      openLanes.forEach((buffer, count) -> {
        if (count == 0) {
          buffer.finish();
        }
      });
    } finally {
      lock.unlock();
    }
    for (int i = 0; i < lanes.size(); i++) {
      Lane lane = lanes.get(i);
      try {
        ScanThreads.executor().execute(() -> produce(lane));
      } catch (RejectedExecutionException e) {
        shutDown();
        for (int j = i; j < lanes.size(); j++) {
          producerExited(lanes.get(j));
        }
        throw e;
      }
    }
  }

  /** Returns whether the scan was closed, failed or canceled; its buffers are then closed. */
  boolean isClosed() {
    return closed;
  }

  /** Returns the first shard failure, or null. */
  @Nullable ShardException failure() {
    return failure;
  }

  /** Returns the error (out of memory) that stopped a producer thread, or null. */
  @Nullable Error error() {
    return error;
  }

  /** Returns whether the cancel flag of the scan is set. */
  boolean cancelRequested() {
    return options.cancelRequested();
  }

  /** Returns the number of requests sent to a shard so far; the others were never started. */
  int startedRequests() {
    lock.lock();
    try {
      return startedRequests;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops the scan: discards buffered rows, cancels running shard statements, starts no more
   * requests, and waits until every producer has closed its result set, statement and
   * connection. Idempotent, and safe to call from any thread.
   */
  void close() {
    boolean interrupted = false;
    lock.lock();
    try {
      shutDown();
      long begun = System.nanoTime();
      long deadline = begun + CLOSE_WAIT_NANOS;
      long left = CLOSE_WAIT_NANOS;
      while (runningProducers > 0 && left > 0) {
        try {
          producersDone.awaitNanos(Math.min(left, RECANCEL_NANOS));
        } catch (InterruptedException e) {
          interrupted = true;
        }
        if (System.nanoTime() - begun > ABANDON_AFTER_NANOS) {
          runningStatements.forEach(RunningStatement::abandon);
        } else {
          cancelRunningStatements();
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

  /** The body of a producer thread: runs its lane's requests until none is left or it stops. */
  private void produce(Lane lane) {
    try {
      ShardStream stream =
          new ShardStream(new LaneSink(lane.buffer()), rowReader, options, deadlineNanos);
      ShardRequest request;
      while ((request = nextRequest(lane)) != null) {
        try {
          stream.run(request);
        } catch (RuntimeException e) {
          fail(request.endpoint(), e);
        } catch (VirtualMachineError e) {
          // Out of memory is the process's failure, wherever it struck, not the shard's.
          fail(e);
          throw e;
        } catch (Error e) {
          fail(request.endpoint(), e);
          throw e;
        }
      }
    } finally {
      producerExited(lane);
    }
  }

  private @Nullable ShardRequest nextRequest(Lane lane) {
    lock.lock();
    try {
      if (closed || !lane.requests().hasNext()) {
        return null;
      }
      startedRequests++;
      return lane.requests().next();
    } finally {
      lock.unlock();
    }
  }

  private void producerExited(Lane lane) {
    lock.lock();
    try {
      BoundedBuffer<List<@Nullable Object[]>> buffer = lane.buffer();
      int left = openLanes.merge(buffer, -1, Integer::sum);
      if (left == 0 && !closed) {
        buffer.finish();
      }
      if (--runningProducers == 0) {
        CancelWatch.unwatch(this);
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
      // A fallback shard's failure names that shard already.
      failure = cause instanceof ShardException named ? named : ShardException.of(endpoint, cause);
      shutDown();
    } finally {
      lock.unlock();
    }
  }

  private void fail(VirtualMachineError cause) {
    lock.lock();
    try {
      if (!closed) {
        error = cause;
        shutDown();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops the scan when its cancel flag is set, and abandons the connections of statements
   * whose shard kept them waiting past their time limit; their producers then fail at once
   * with the limit that elapsed, instead of waiting for a shard that does not answer.
   */
  @Override public void check(long nowNanos) {
    if (options.cancelRequested()) {
      shutDown();
    }
    List<RunningStatement> overdue;
    lock.lock();
    try {
      overdue = runningStatements.stream().filter(s -> s.overdue(nowNanos)).toList();
    } finally {
      lock.unlock();
    }
    overdue.forEach(RunningStatement::abandon);
  }

  /**
   * Marks the scan closed, discards the buffers (waking producers and consumer) and cancels every
   * running statement. Cancels run on signal threads; a producer releasing its statement waits
   * for them (see {@link RunningStatement#release()}), so none reaches a returned connection.
   */
  private void shutDown() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      openLanes.keySet().forEach(BoundedBuffer::close);
      cancelRunningStatements();
    } finally {
      lock.unlock();
    }
  }

  /** Cancels every registered statement on signal threads; called under the lock. */
  private void cancelRunningStatements() {
    runningStatements.forEach(RunningStatement::cancel);
  }

  /** What the producers of one buffer see of the scan. */
  private final class LaneSink implements ShardStream.Sink {
    private final BoundedBuffer<List<@Nullable Object[]>> buffer;

    LaneSink(BoundedBuffer<List<@Nullable Object[]>> buffer) {
      this.buffer = buffer;
    }

    @Override public boolean register(RunningStatement statement) {
      lock.lock();
      try {
        return !closed && runningStatements.add(statement);
      } finally {
        lock.unlock();
      }
    }

    @Override public boolean stopped() {
      return closed;
    }

    @Override public void unregister(RunningStatement statement) {
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
