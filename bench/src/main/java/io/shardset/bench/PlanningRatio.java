package io.shardset.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a system's planning time grows with the shard count: its median at the most shards over
 * its median at the fewest, among the shard counts it was measured at without being stopped.
 */
record PlanningRatio(String system, int fewestShards, int mostShards, double value) {
  /** One ratio per system with at least two measured shard counts, in first-seen order. */
  static List<PlanningRatio> of(List<PlanningPoint> points) {
    final Map<String, List<PlanningPoint>> bySystem = new LinkedHashMap<>();
    for (PlanningPoint p : points) {
      if (p.planning().isPresent()) {
        bySystem.computeIfAbsent(p.system(), k -> new ArrayList<>()).add(p);
      }
    }
    final List<PlanningRatio> result = new ArrayList<>();
    bySystem.forEach((system, measured) -> {
      if (measured.size() >= 2) {
        final PlanningPoint fewest = measured.stream()
            .min(Comparator.comparingInt(PlanningPoint::shards)).orElseThrow();
        final PlanningPoint most = measured.stream()
            .max(Comparator.comparingInt(PlanningPoint::shards)).orElseThrow();
        result.add(new PlanningRatio(system, fewest.shards(), most.shards(),
            median(most) / median(fewest)));
      }
    });
    return result;
  }

  private static double median(PlanningPoint p) {
    return p.planning().orElseThrow().medianMillis();
  }
}
