package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link ChartData}. */
class ChartDataTest {
  private static Stats median(double millis) {
    return new Stats(1, millis, millis, 1000 / millis);
  }

  private static Map<String, Outcome> systems(Object... nameAndMedian) {
    final Map<String, Outcome> result = new LinkedHashMap<>();
    for (int i = 0; i < nameAndMedian.length; i += 2) {
      result.put((String) nameAndMedian[i],
          Outcome.measured(median((Double) nameAndMedian[i + 1])));
    }
    return result;
  }

  @Test void throughputIsOneOverTheMedianPerWorkloadAndSystemInReportOrder() {
    final Report report = new Report();
    report.add("w1", systems("L", 0.5, "X", 2.0));
    report.add("w3", systems("N", 100.0, "X", 40.0));
    final Map<String, Map<String, Double>> data = ChartData.throughput(report.rows());
    assertEquals(List.of("w1", "w3"), List.copyOf(data.keySet()));
    assertEquals(Map.of("L", 2000.0, "X", 500.0), data.get("w1"));
    assertEquals(List.of("N", "X"), List.copyOf(data.get("w3").keySet()));
    assertEquals(25.0, data.get("w3").get("X"));
  }

  @Test void aZeroMedianHasNoRate() {
    final Report report = new Report();
    report.add("w1", systems("L", 0.0, "X", 2.0));
    assertEquals(Map.of("X", 500.0), ChartData.throughput(report.rows()).get("w1"));
  }

  @Test void notesHaveNoRateAndAWorkloadOfNotesNoPanel() {
    final Report report = new Report();
    final Map<String, Outcome> w3 = new LinkedHashMap<>(systems("L", 0.5));
    w3.put("S", Outcome.note("failed: Unsupported SQL"));
    report.add("w3", w3);
    report.add("w5", Map.of("L", Outcome.note("100,000 rows, 1,000,000 rows/s, heap 20 MiB")));
    final Map<String, Map<String, Double>> data = ChartData.throughput(report.rows());
    assertEquals(List.of("w3"), List.copyOf(data.keySet()));
    assertEquals(Map.of("L", 2000.0), data.get("w3"));
  }

  @Test void planningSeriesAreSortedByShardsAndKeepStoppedPointsApart() {
    final Duration cap = Duration.ofSeconds(30);
    final Map<String, ChartData.PlanningSeries> data = ChartData.planning(List.of(
        new PlanningPoint("X", 16, 1, Optional.of(median(5.0)), Duration.ZERO),
        new PlanningPoint("X", 4, 1, Optional.of(median(4.0)), Duration.ZERO),
        new PlanningPoint("N", 4, 1, Optional.of(median(900.0)), cap),
        new PlanningPoint("N", 16, 1, Optional.empty(), cap)));
    assertEquals(List.of("X", "N"), List.copyOf(data.keySet()));
    assertEquals(new ChartData.PlanningSeries(List.of(4, 16), List.of(4.0, 5.0), List.of(),
        List.of()), data.get("X"));
    assertEquals(new ChartData.PlanningSeries(List.of(4), List.of(900.0), List.of(16),
        List.of(30_000.0)), data.get("N"));
  }

  @Test void concurrencyIsEachSystemsThroughputByClientCountWithoutFailures() {
    final Stats latency = new Stats(1, 1, 1, 1000);
    final Map<String, ChartData.Series> series = ChartData.concurrency(List.of(
        new ConcurrentClients.Point("D", 8, 800, 40, latency, null),
        new ConcurrentClients.Point("X", 8, 700, 50, latency, null),
        new ConcurrentClients.Point("D", 1, 100, 40, latency, null),
        new ConcurrentClients.Point("X", 1, Double.NaN, Double.NaN, null, "failed: x")));
    assertEquals(List.of("D", "X"), List.copyOf(series.keySet()));
    assertEquals(new ChartData.Series(List.of(1, 8), List.of(100.0, 800.0)),
        series.get("D"));
    assertEquals(new ChartData.Series(List.of(8), List.of(700.0)),
        series.get("X"));
  }
}
