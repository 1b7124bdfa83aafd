package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests the verdict of {@link ConcurrentClients}' target. */
class ConcurrentClientsTest {
  private static ConcurrentClients.Point point(String system, int clients, double rate) {
    return new ConcurrentClients.Point(system, clients, rate, 50,
        new Stats(100, 1, 2, 1_000), null);
  }

  @Test void xWithinTenPercentOfDAtThirtyTwoClientsMeetsTheTarget() {
    assertEquals("w17 32 clients (PostgreSQL): X's throughput / D's = 9,200 / 10,000: 0.92"
        + " (at least 0.90): met", ConcurrentClients.target("PostgreSQL", List.of(
            point("D", 1, 100), point("X", 1, 1), point("D", 32, 10_000),
            point("X", 32, 9_200))));
  }

  @Test void xFurtherBehindMissesItAndTheFewerClientsDoNotCount() {
    assertEquals("w17 32 clients (H2): X's throughput / D's = 8,000 / 10,000: 0.80"
        + " (at least 0.90): missed", ConcurrentClients.target("H2", List.of(
            point("D", 8, 100), point("X", 8, 100), point("D", 32, 10_000),
            point("X", 32, 8_000))));
  }

  @Test void aSystemThatFailedLeavesTheTargetUnchecked() {
    assertEquals("w17 32 clients (PostgreSQL): X's throughput / D's: not checked, X or D not"
        + " measured", ConcurrentClients.target("PostgreSQL", List.of(point("D", 32, 10_000),
            new ConcurrentClients.Point("X", 32, Double.NaN, Double.NaN, null, "failed: x"))));
  }
}
