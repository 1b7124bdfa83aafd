package io.shardset.cli.load;

import io.shardset.execution.ProgressMeters;
import io.shardset.load.RowRates;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Shows how far a load has got: a redrawn bar on a terminal, or a plain line every few seconds
 * when the output goes to a file or a pipe. How far is measured in bytes of input read.
 */
public final class ProgressReporter {
  private static final int BAR_WIDTH = 30;
  /** Redraw a bar at most this often, so that drawing does not slow the load. */
  private static final long BAR_INTERVAL_NANOS = 200_000_000L;

  private final PrintWriter out;
  private final long totalBytes;
  private final LongSupplier nanoClock;
  private final boolean bar;
  private final long intervalNanos;
  private final long start;
  private long lastShown;
  private boolean drawn;
  /** The gauges the rows loaded are set on, or null. */
  private @Nullable ProgressMeters meters;

  private ProgressReporter(PrintWriter out, long totalBytes, LongSupplier nanoClock, boolean bar,
      long intervalNanos) {
    this.out = Objects.requireNonNull(out, "out");
    this.totalBytes = totalBytes;
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.bar = bar;
    this.intervalNanos = intervalNanos;
    this.start = nanoClock.getAsLong();
    this.lastShown = start;
  }

  /** A bar redrawn in place (with carriage returns), for a terminal. */
  public static ProgressReporter bar(PrintWriter out, long totalBytes, LongSupplier nanoClock) {
    return new ProgressReporter(out, totalBytes, nanoClock, true, BAR_INTERVAL_NANOS);
  }

  /** A line every {@code intervalNanos}, for logs. */
  public static ProgressReporter lines(PrintWriter out, long totalBytes, LongSupplier nanoClock,
      long intervalNanos) {
    return new ProgressReporter(out, totalBytes, nanoClock, false, intervalNanos);
  }

  /** Also sets the rows loaded so far on {@code gauges}. */
  public ProgressReporter metered(ProgressMeters gauges) {
    this.meters = gauges;
    return this;
  }

  /** Reports the rows loaded and bytes read so far; shows them if it is time to. */
  public void update(long rows, long bytesRead) {
    if (meters != null) {
      meters.rows(rows, 0);
    }
    final long now = nanoClock.getAsLong();
    if (now - lastShown < intervalNanos) {
      return;
    }
    lastShown = now;
    show(rows, bytesRead, now);
  }

  /** Shows the final state, and ends the bar's line. */
  public void finish(long rows, long bytesRead) {
    if (meters != null) {
      meters.rows(rows, rows);
    }
    final long now = nanoClock.getAsLong();
    if (bar) {
      show(rows, bytesRead, now);
      out.println();
    } else if (drawn) {
      show(rows, bytesRead, now);
    }
    out.flush();
  }

  private void show(long rows, long bytesRead, long now) {
    drawn = true;
    final int percent = totalBytes <= 0 ? 100
        : (int) Math.min(100, bytesRead * 100 / totalBytes);
    final String rate =
        String.format(Locale.ROOT, "%,d rows/s", RowRates.perSecond(rows, now - start));
    if (bar) {
      final int filled = percent * BAR_WIDTH / 100;
      out.print(String.format(Locale.ROOT, "\r[%s%s] %3d%% %,d rows, %s",
          "#".repeat(filled), "-".repeat(BAR_WIDTH - filled), percent, rows, rate));
    } else {
      out.println(String.format(Locale.ROOT, "%,d rows (%d%%), %s", rows, percent, rate));
    }
    out.flush();
  }
}
