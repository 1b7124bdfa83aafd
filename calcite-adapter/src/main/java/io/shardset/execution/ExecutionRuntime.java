package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The execution layer's part of a process's runtime: each open model's {@link ModelResources},
 * counted by the leases its connections hold and closed when the last is released, the
 * housekeeping thread their pools share, and the {@link ScanServices} (scan threads, cancel
 * watch, signal threads) every scan of the runtime runs on.
 *
 * <p>Models are told apart by a key the caller chooses (the layer above knows what a model
 * is: a model file and schema, say).
 */
public final class ExecutionRuntime implements AutoCloseable {
  private final ScheduledExecutorService housekeeping = createHousekeeping();
  private final ScanServices scanServices = new ScanServices();
  /** Open models by key; guarded by this. */
  private final Map<Object, Held> models = new HashMap<>();
  /** Guarded by this. */
  private boolean closed;

  /** A model's resources and how many leases hold them. */
  private static final class Held {
    final ModelResources resources;
    int leases;

    Held(ModelResources resources) {
      this.resources = resources;
    }
  }

  /** One hold on a model's resources; releasing the last closes them. */
  public final class Lease implements AutoCloseable {
    private final Object model;
    private final Held held;
    private final AtomicBoolean released = new AtomicBoolean();

    private Lease(Object model, Held held) {
      this.model = model;
      this.held = held;
    }

    /** The resources this lease holds open. */
    public ModelResources resources() {
      return held.resources;
    }

    /** Releases the hold; more than once is fine. */
    @Override public void close() {
      if (released.compareAndSet(false, true)) {
        release(model, held);
      }
    }
  }

  /** Creates a runtime with no model open. */
  public ExecutionRuntime() {
    // Spill files of processes killed while they spilled; in the background, as a start-up
    // needs none of it.
    housekeeping.execute(() -> SpillFiles.removeStale(SpillFiles.directory()));
  }

  /**
   * Holds a model's resources open, creating them if no lease holds them.
   *
   * @throws IllegalStateException once this runtime is closed
   */
  public synchronized Lease acquire(Object model) {
    Objects.requireNonNull(model, "model");
    if (closed) {
      throw new IllegalStateException("the ShardSet runtime is closed");
    }
    final Held held =
        models.computeIfAbsent(model,
            m -> new Held(new ModelResources(housekeeping, scanServices.metrics())));
    held.leases++;
    return new Lease(model, held);
  }

  /**
   * A model's resources, held open until this runtime closes: for schemas built outside any
   * connection, whose end nobody reports.
   */
  public ModelResources pin(Object model) {
    return acquire(model).resources();
  }

  /** The resources of a model that leases hold open now, or null. */
  public synchronized @Nullable ModelResources resources(Object model) {
    final Held held = models.get(model);
    return held == null ? null : held.resources;
  }

  /** The threads this runtime's scans run on; closed with the runtime. */
  public ScanServices scanServices() {
    return scanServices;
  }

  /** The number of models whose resources are open now. */
  public synchronized int openModels() {
    return models.size();
  }

  private void release(Object model, Held held) {
    synchronized (this) {
      if (--held.leases > 0 || models.get(model) != held) {
        return;
      }
      models.remove(model);
    }
    // Outside the lock: closing pools waits for their connections to close.
    held.resources.close();
  }

  /**
   * Closes every model's resources, the housekeeping thread and the scan services; leases
   * become no-ops. Does not wait for scans still running: they finish on their threads, which
   * then end.
   */
  @Override public void close() {
    final Map<Object, Held> open;
    synchronized (this) {
      closed = true;
      open = Map.copyOf(models);
      models.clear();
    }
    for (Held held : open.values()) {
      held.resources.close();
    }
    housekeeping.shutdownNow();
    scanServices.close();
  }

  /**
   * Waits at most {@code timeout} for this closed runtime's threads to end; true if they all
   * did.
   */
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    final long deadline = System.nanoTime() + unit.toNanos(timeout);
    return housekeeping.awaitTermination(timeout, unit)
        && scanServices.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
  }

  private static ScheduledExecutorService createHousekeeping() {
    ScheduledThreadPoolExecutor executor = new LastingScheduler("shardset-pool-housekeeper");
    // Closed pools cancel their housekeeping tasks; drop them instead of keeping them queued.
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }
}
