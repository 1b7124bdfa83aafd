package io.shardset.load;

/** Rows per second, as the command-line tools' progress lines and reports show them. */
public final class RowRates {
  private RowRates() {
  }

  /** Rows per second over an elapsed time; 0 before any time has passed. */
  public static long perSecond(long rows, long elapsedNanos) {
    return elapsedNanos <= 0 ? 0 : (long) (rows * 1e9 / elapsedNanos);
  }
}
