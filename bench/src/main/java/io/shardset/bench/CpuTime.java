package io.shardset.bench;

import io.shardset.util.SuppressForbidden;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The CPU time of this process, and the CPU time per query it implies: what w17 reports beside
 * throughput, since a client that keeps up by burning more CPU leaves less for the application.
 */
final class CpuTime {
  private CpuTime() {
  }

  /**
   * The CPU time every thread of this JVM has used so far (compiler and collector included),
   * in nanoseconds; -1 where the JVM does not say.
   */
  @SuppressForbidden(reason = "the process CPU time is offered only by the JVM's own bean")
  static long processNanos() {
    final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun
        ? sun.getProcessCpuTime() : -1;
  }

  /**
   * Microseconds of CPU per query over a window: the difference of two {@link #processNanos()}
   * readings over the queries answered between them; NaN if either reading is unknown or no
   * query was answered, rather than a number that means nothing.
   */
  static double microsPerQuery(long startNanos, long endNanos, long queries) {
    if (startNanos < 0 || endNanos < startNanos || queries <= 0) {
      return Double.NaN;
    }
    return (endNanos - startNanos) / 1e3 / queries;
  }
}
