package io.shardset.bench;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The target for a routed single-row write (w11, w12): X's median latency at most
 * {@value #MAX_OVER_D} times D's (plain JDBC to the shard ShardSet's router names, the floor)
 * and no more than S's. Checked from a workload's outcomes; a system that was not measured
 * leaves the target unchecked, and the line says which.
 */
public final class WriteTarget {
  /** The most X's median may be, in multiples of D's. */
  public static final double MAX_OVER_D = 1.5;

  private WriteTarget() {
  }

  /** One line saying whether the workload's outcomes (by system name) meet the target. */
  public static String check(String workload, Map<String, Outcome> bySystem) {
    Objects.requireNonNull(workload, "workload");
    final String unmeasured = unmeasured(bySystem, "X", "D", "S");
    if (unmeasured != null) {
      return workload + ": not checked, " + unmeasured;
    }
    final double x = bySystem.get("X").stats().medianMillis();
    final double d = bySystem.get("D").stats().medianMillis();
    final double s = bySystem.get("S").stats().medianMillis();
    final boolean nearD = x <= MAX_OVER_D * d;
    final boolean beatsS = x <= s;
    // Three decimals always: one decimal would show a missed "no slower than S" as 2.2 against
    // 2.2 ms.
    return String.format(Locale.ROOT, "%s: X/D = %.3f/%.3f = %.2f (at most %.1f), S %.3f ms: %s",
        workload, x, d, x / d, MAX_OVER_D, s,
        nearD && beatsS ? "met" : nearD ? "missed (X slower than S)"
            : beatsS ? "missed (X over " + MAX_OVER_D + " x D)"
            : "missed (X over " + MAX_OVER_D + " x D and slower than S)");
  }

  /** "X not measured: note" for the first of the systems without latencies, or null. */
  private static String unmeasured(Map<String, Outcome> bySystem, String... systems) {
    for (String system : systems) {
      final Outcome outcome = bySystem.get(system);
      if (outcome == null) {
        return system + " did not run";
      }
      if (outcome.stats() == null) {
        return system + " not measured: " + outcome.note();
      }
    }
    return null;
  }
}
