package io.shardset.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers the charts draw, taken from a {@link Report} without knowing its workloads or
 * systems, so that a workload or system added later shows up by itself.
 */
final class ChartData {
  private ChartData() {
  }

  /** A system's planning times by shard count, and the shard counts where it was stopped. */
  record PlanningSeries(List<Integer> shards, List<Double> medianMillis,
      List<Integer> stoppedShards, List<Double> stoppedAtMillis) {
  }

  /**
   * Per workload in report order, each system's operations per second as one client sees
   * them: 1000 / median milliseconds. A row with a note (a failure, a skip, a streamed run)
   * and a median of zero are left out: they have no rate to draw; so is a workload left with
   * no rate at all (w5, whose runs are streamed and noted), as an empty panel says nothing.
   */
  static Map<String, Map<String, Double>> throughput(List<Report.Row> rows) {
    final Map<String, Map<String, Double>> result = new LinkedHashMap<>();
    for (Report.Row row : rows) {
      final Stats stats = row.outcome().stats();
      if (stats != null && stats.medianMillis() > 0) {
        result.computeIfAbsent(row.workload(), k -> new LinkedHashMap<>())
            .put(row.system(), 1000 / stats.medianMillis());
      }
    }
    return result;
  }

  /** One line of a chart: y by x. */
  record Series(List<Integer> x, List<Double> y) {
  }

  /**
   * w17's throughput of each system by client count, in first-seen order and by ascending
   * client count; a point with a note (the system failed) is left out.
   */
  static Map<String, Series> concurrency(List<ConcurrentClients.Point> points) {
    final Map<String, Series> result = new LinkedHashMap<>();
    points.stream().filter(p -> p.note() == null)
        .sorted((a, b) -> Integer.compare(a.clients(), b.clients()))
        .forEach(p -> {
          final Series series = result.computeIfAbsent(p.system(),
              k -> new Series(new ArrayList<>(), new ArrayList<>()));
          series.x().add(p.clients());
          series.y().add(p.queriesPerSecond());
        });
    return result;
  }

  /** Each system's planning series, in first-seen order and by ascending shard count. */
  static Map<String, PlanningSeries> planning(List<PlanningPoint> points) {
    final Map<String, List<PlanningPoint>> bySystem = new LinkedHashMap<>();
    for (PlanningPoint p : points) {
      bySystem.computeIfAbsent(p.system(), k -> new ArrayList<>()).add(p);
    }
    final Map<String, PlanningSeries> result = new LinkedHashMap<>();
    bySystem.forEach((system, list) -> {
      final List<Integer> shards = new ArrayList<>();
      final List<Double> medians = new ArrayList<>();
      final List<Integer> stopped = new ArrayList<>();
      final List<Double> stoppedAt = new ArrayList<>();
      list.stream().sorted((a, b) -> Integer.compare(a.shards(), b.shards())).forEach(p -> {
        if (p.planning().isPresent()) {
          shards.add(p.shards());
          medians.add(p.planning().get().medianMillis());
        } else {
          stopped.add(p.shards());
          stoppedAt.add((double) p.cap().toMillis());
        }
      });
      result.put(system, new PlanningSeries(shards, medians, stopped, stoppedAt));
    });
    return result;
  }
}
