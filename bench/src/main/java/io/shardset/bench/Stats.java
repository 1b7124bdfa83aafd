package io.shardset.bench;

import java.util.Arrays;

/** Summary of one system's latencies in one workload: median, 99th percentile, throughput. */
public record Stats(int count, double medianMillis, double p99Millis, double opsPerSecond) {
  /**
   * Summarizes operation latencies in nanoseconds. The median of an even count is the mean
   * of the two middle values; the 99th percentile is the nearest rank (the smallest value
   * with at least 99 % of the values at or below it). Throughput is the count over the sum
   * of the latencies, the rate of one client that does nothing else.
   */
  public static Stats of(long[] latencyNanos) {
    if (latencyNanos.length == 0) {
      throw new IllegalArgumentException("no latencies to summarize");
    }
    final long[] sorted = latencyNanos.clone();
    Arrays.sort(sorted);
    final int n = sorted.length;
    final double median = n % 2 == 1 ? sorted[n / 2]
        : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    final long p99 = sorted[(int) Math.ceil(0.99 * n) - 1];
    long total = 0;
    for (long value : sorted) {
      total += value;
    }
    return new Stats(n, median / 1e6, p99 / 1e6, total == 0 ? 0 : n * 1e9 / total);
  }
}
