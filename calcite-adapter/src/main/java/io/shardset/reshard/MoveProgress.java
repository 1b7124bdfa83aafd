package io.shardset.reshard;

import io.shardset.load.RowRates;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What the resharding tool shows while a move runs: fed the move's events, it gives a
 * {@link ProgressLine} at most once a second (the caller prints it where it likes) and a final
 * report. Not thread-safe: one thread feeds and reads it.
 */
public final class MoveProgress {
  /** The least time between two lines that {@link #lineIfDue()} gives. */
  static final long LINE_INTERVAL_NANOS = 1_000_000_000L;

  private final LongSupplier nanoTime;
  private final long start;
  /** When the current step began: a line's rate counts the rows of its step only. */
  private long stepStart;
  private final Map<List<String>, Long> pairRows = new LinkedHashMap<>();
  private String step = "plan";
  private long rows;
  private long totalRows;
  private int ranges;
  private int totalRanges;
  private long allRows;
  private long lastLine;
  private boolean anyLine;

  /** A progress model whose run starts now, by {@code nanoTime} ({@code System::nanoTime}). */
  public MoveProgress(LongSupplier nanoTime) {
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    this.start = nanoTime.getAsLong();
    this.stepStart = start;
  }

  /** The step now running, as lines name it: {@code copy}. */
  public void step(String name) {
    if (!name.equals(step)) {
      stepStart = nanoTime.getAsLong();
    }
    this.step = name;
  }

  /** The rows copied so far, and all rows to copy (0 if not known). */
  public void rows(long copied, long total) {
    this.rows = copied;
    this.totalRows = total;
  }

  /** The hash ranges done, and all ranges to move. */
  public void ranges(int done, int total) {
    this.ranges = done;
    this.totalRanges = total;
  }

  /** Adds rows moved from one shard to another, for the report. */
  public void pairRows(String source, String target, long moved) {
    pairRows.merge(List.of(source, target), moved, Long::sum);
  }

  /** All rows of the tables the move carries, moved or not, for the report's fraction. */
  public void allRows(long rows) {
    this.allRows = rows;
  }

  /** The line for now. */
  public ProgressLine line() {
    return lineAt(nanoTime.getAsLong());
  }

  /** The line for now, if no line was given in the last second. */
  public Optional<ProgressLine> lineIfDue() {
    final long now = nanoTime.getAsLong();
    if (anyLine && now - lastLine < LINE_INTERVAL_NANOS) {
      return Optional.empty();
    }
    anyLine = true;
    lastLine = now;
    return Optional.of(lineAt(now));
  }

  private ProgressLine lineAt(long now) {
    return new ProgressLine(step, rows, totalRows, ranges, totalRanges, now - stepStart);
  }

  /**
   * The final report: rows moved in all and per shard pair, their fraction of all rows,
   * the time taken and the rate.
   */
  public String report() {
    final long elapsed = nanoTime.getAsLong() - start;
    final long moved = pairRows.values().stream().mapToLong(Long::longValue).sum();
    final StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
        "moved %,d rows", moved));
    if (allRows > 0) {
      text.append(String.format(Locale.ROOT, " of %,d (%.1f %%)", allRows,
          moved * 100.0 / allRows));
    }
    text.append(String.format(Locale.ROOT, " in %s, %,d rows/s\n", Durations.elapsed(elapsed),
        RowRates.perSecond(moved, elapsed)));
    pairRows.forEach((pair, pairMoved) -> text.append(String.format(Locale.ROOT,
        "  %s -> %s: %,d rows\n", pair.get(0), pair.get(1), pairMoved)));
    return text.toString();
  }
}
