package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cursor of {@link ParallelScan#concat} over several requests: up to {@code parallelism}
 * scan threads take the pending requests one by one and stream their batches into one shared
 * bounded buffer, which the consumer reads in arrival order.
 */
final class ConcatCursor implements ScanCursor {
  private final List<ShardRequest> requests;
  private final ScanControl control;
  private final BoundedBuffer<List<@Nullable Object[]>> buffer;
  private final BatchCursor batches;
  private final ScanWorkers workers;
  private final ShardStream stream;
  /** Requests not yet done; the buffer is finished when none is left. */
  private final AtomicInteger pending;

  ConcatCursor(List<ShardRequest> requests, RowReader rowReader, ScanControl control) {
    this.requests = List.copyOf(requests);
    this.control = control;
    ScanOptions options = control.options();
    this.buffer = new BoundedBuffer<>(options.bufferBatches());
    this.batches = new BatchCursor(buffer, control::cancelRequested);
    this.workers = new ScanWorkers(options.services().scanThreads(),
        options.parallelism());
    this.stream = new ShardStream(new Sink(), rowReader, options, control.deadlineNanos());
    this.pending = new AtomicInteger(this.requests.size());
    control.onStop(() -> {
      workers.stop();
      buffer.close();
    });
  }

  @Override public void start() {
    if (requests.isEmpty()) {
      buffer.finish();
      return;
    }
    workers.start(requests.stream().<Runnable>map(request -> () -> produce(request)).toList());
    // Every request is queued: a worker ends when none is left.
    workers.retire();
  }

  @Override public @Nullable Object @Nullable [] next() {
    return batches.next();
  }

  @Override public void release() {
    // Each scan thread closes what it opened before it lets go.
  }

  /** The task of one request on a scan thread: streams its rows into the buffer. */
  private void produce(ShardRequest request) {
    if (!control.enterReader()) {
      return;
    }
    try {
      control.requestStarted();
      stream.run(request);
    } catch (RuntimeException | Error e) {
      control.fail(request.endpoint(), e);
      if (e instanceof Error error) {
        throw error;
      }
    } finally {
      control.exitReader();
      if (pending.decrementAndGet() == 0) {
        buffer.finish();
      }
    }
  }

  /** Returns the number of batches buffered now. */
  int bufferedBatches() {
    return batches.bufferedBatches();
  }

  /** Returns the largest number of batches buffered at once. */
  int peakBufferedBatches() {
    return batches.peakBufferedBatches();
  }

  /** What a request's stream sees of the scan. */
  private final class Sink implements ShardStream.Sink {
    @Override public boolean register(RunningStatement statement) {
      return control.register(statement);
    }

    @Override public void unregister(RunningStatement statement) {
      control.unregister(statement);
    }

    @Override public boolean stopped() {
      return control.stopped();
    }

    @Override public boolean offer(List<@Nullable Object[]> rows) {
      if (control.cancelRequested()) {
        // Wake the consumer, which reports the cancel.
        control.stop();
        return false;
      }
      return buffer.put(rows);
    }
  }
}
