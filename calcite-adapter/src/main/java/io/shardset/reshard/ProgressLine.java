package io.shardset.reshard;

import io.shardset.load.RowRates;

import java.util.Locale;
import java.util.Objects;

/**
 * How far a move has got at one moment, as one terminal line: {@code copy: 12,345 / 20,046
 * rows (61.6 %), 48 / 96 ranges, 8,210 rows/s, ETA 1 s}. The rate is over the whole run so
 * far, and the ETA assumes it holds. Parts whose totals are not known yet are left out.
 *
 * @param step the step running, such as {@code copy}
 * @param rows the rows copied so far
 * @param totalRows the rows to copy, or 0 if not known
 * @param ranges the hash ranges done
 * @param totalRanges the hash ranges to move, or 0 if not known
 * @param elapsedNanos the time since the step started
 */
public record ProgressLine(String step, long rows, long totalRows, int ranges,
    int totalRanges, long elapsedNanos) {
  public ProgressLine {
    Objects.requireNonNull(step, "step");
  }

  /** Rows per second over the whole run. */
  public long rowsPerSecond() {
    return RowRates.perSecond(rows, elapsedNanos);
  }

  /** The line, without a line end. */
  public String render() {
    final StringBuilder line = new StringBuilder(step).append(": ");
    line.append(String.format(Locale.ROOT, "%,d", rows));
    if (totalRows > 0) {
      line.append(String.format(Locale.ROOT, " / %,d rows (%.1f %%)", totalRows,
          Math.min(100.0, rows * 100.0 / totalRows)));
    } else {
      line.append(" rows");
    }
    if (totalRanges > 0) {
      line.append(String.format(Locale.ROOT, ", %,d / %,d ranges", ranges, totalRanges));
    }
    line.append(String.format(Locale.ROOT, ", %,d rows/s", rowsPerSecond()));
    if (totalRows > 0) {
      line.append(", ETA ").append(eta());
    }
    return line.toString();
  }

  /** The time left at the current rate, in whole seconds rounded up; "?" before any rows. */
  private String eta() {
    final long left = Math.max(0, totalRows - rows);
    if (left == 0) {
      return "0 s";
    }
    final long rate = rowsPerSecond();
    return rate == 0 ? "?" : Durations.seconds((left + rate - 1) / rate);
  }
}
