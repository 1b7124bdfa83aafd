package io.shardset.reshard;

import java.util.Locale;

/** Durations as the resharding tool's progress lines and reports spell them. */
final class Durations {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private Durations() {
  }

  /** Whole seconds: {@code 45 s}, {@code 2 min 5 s}, {@code 1 h 3 min}. */
  static String seconds(long seconds) {
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return seconds / 60 + " min " + seconds % 60 + " s";
    }
    return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
  }

  /** An elapsed time: to a tenth of a second under a minute ({@code 2.4 s}), else as
   * {@link #seconds}. */
  static String elapsed(long nanos) {
    if (nanos < 60 * NANOS_PER_SECOND) {
      return String.format(Locale.ROOT, "%.1f s", nanos / (double) NANOS_PER_SECOND);
    }
    return seconds(nanos / NANOS_PER_SECOND);
  }
}
