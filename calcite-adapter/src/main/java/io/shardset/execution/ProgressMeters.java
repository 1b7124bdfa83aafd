package io.shardset.execution;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How far a long operation of the command-line tools has got, as two gauges on a runtime's
 * registry: {@code shardset.<operation>.rows.done} and {@code shardset.<operation>.rows.total}
 * (0 while not known), tagged with what it works on ({@code target}). A resharding's are
 * {@code shardset.reshard.*}, tagged with the model's schema; a load's are
 * {@code shardset.load.*}, tagged with the table. Closing removes them.
 */
public final class ProgressMeters implements AutoCloseable {
  private final MeterRegistry registry;
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong total = new AtomicLong();
  private final List<Gauge> gauges;

  private ProgressMeters(MeterRegistry registry, String operation, String target) {
    this.registry = registry;
    this.gauges = List.of(
        Gauge.builder("shardset." + operation + ".rows.done", done, AtomicLong::get)
            .description("rows the " + operation + " has done").tag("target", target)
            .register(registry),
        Gauge.builder("shardset." + operation + ".rows.total", total, AtomicLong::get)
            .description("rows the " + operation + " has to do, 0 if not known")
            .tag("target", target).register(registry));
  }

  /**
   * The gauges of an operation ({@code reshard}, {@code load}) on {@code target}, on the
   * meters' registry.
   */
  public static ProgressMeters of(ShardMetrics metrics, String operation, String target) {
    return new ProgressMeters(metrics.registry(), Objects.requireNonNull(operation, "operation"),
        Objects.requireNonNull(target, "target"));
  }

  /** The rows done so far, and all rows to do (0 if not known). */
  public void rows(long doneRows, long totalRows) {
    done.set(doneRows);
    total.set(totalRows);
  }

  /** Removes the gauges. */
  @Override public void close() {
    gauges.forEach(registry::remove);
  }
}
