package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link PlanningRatio} and how the report shows planning points. */
class PlanningRatioTest {
  private static PlanningPoint point(String system, int shards, Double medianMillis) {
    return new PlanningPoint(system, shards, 10,
        Optional.ofNullable(medianMillis).map(m -> new Stats(1, m, m, 1000 / m)),
        Duration.ofSeconds(30));
  }

  @Test void ratioIsTheMedianAtTheMostShardsOverTheMedianAtTheFewest() {
    assertEquals(List.of(new PlanningRatio("X", 4, 1024, 1.5)), PlanningRatio.of(List.of(
        point("X", 1024, 6.0), point("X", 4, 4.0), point("X", 64, 100.0))));
  }

  @Test void stoppedPointsAndSingleCountsHaveNoRatio() {
    assertEquals(List.of(), PlanningRatio.of(List.of(point("N", 4, 900.0),
        point("N", 16, null))));
  }

  @Test void reportSaysOverTheCapShowsStartupsAndLinksItsCharts() {
    final Report report = new Report();
    report.addPlanning(List.of(point("X", 4, 2.0), point("X", 16, 3.0), point("N", 16, null)));
    report.chart(new Report.Chart("Planning time", "planning.png"));
    report.addStartup("w10 start", new Stats(5, 3000, 3500, 0.3));
    final String markdown = report.markdown();
    assertTrue(markdown.contains("| N | 16 | over 30 s |  | 10.0 |"), markdown);
    assertTrue(markdown.contains("X planning at 16 shards / at 4 shards: 1.50"), markdown);
    assertTrue(markdown.contains("![Planning time](planning.png)"), markdown);
    assertTrue(markdown.contains("| w10 start | 3000.0 | 3500.0 | 5 |"), markdown);
  }
}
