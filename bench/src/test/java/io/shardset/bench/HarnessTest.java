package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link Harness}. */
class HarnessTest {
  @Test void systemsTakeTurnsInARotatingOrderWithTheSameIterations() throws Exception {
    final List<String> calls = new ArrayList<>();
    final Map<String, Operation> systems = new LinkedHashMap<>();
    for (String name : List.of("A", "B", "C")) {
      systems.put(name, iteration -> {
        calls.add(name + iteration);
        return 7;
      });
    }
    final Map<String, Stats> result = new Harness(1, 2, 2).measure("w", systems).measured();
    assertEquals(List.of(
        // the agreement check
        "A0", "B0", "C0",
        // warm-up round
        "A0", "A1", "B0", "B1", "C0", "C1",
        // measured rounds, each starting one system later
        "B2", "B3", "C2", "C3", "A2", "A3",
        "C4", "C5", "A4", "A5", "B4", "B5"), calls);
    assertEquals(List.of("A", "B", "C"), List.copyOf(result.keySet()));
    assertEquals(4, result.get("A").count());
  }

  @Test void systemsThatAnswerDifferentlyAreReportedAndNotMeasured() {
    final Map<String, Operation> systems = new LinkedHashMap<>();
    systems.put("L", iteration -> 1);
    systems.put("X", iteration -> 2);
    systems.put("N", iteration -> 1);
    final Harness.Outcome outcome = new Harness(0, 1, 1).measure("w3", systems);
    assertEquals(List.of("L", "N"), List.copyOf(outcome.measured().keySet()));
    assertEquals(Map.of("X", "wrong answer: checksum 2 but L answered 1"), outcome.failures());
  }

  @Test void aSystemThatThrowsIsReportedWithItsMessage() {
    final Map<String, Operation> systems = new LinkedHashMap<>();
    systems.put("L", iteration -> 1);
    systems.put("S", iteration -> {
      throw new SQLException("Unsupported SQL\n  near AVG");
    });
    final Harness.Outcome outcome = new Harness(0, 1, 1).measure("w3", systems);
    assertEquals(List.of("L"), List.copyOf(outcome.measured().keySet()));
    assertEquals(Map.of("S", "failed: Unsupported SQL near AVG"), outcome.failures());
  }

  @Test void aSystemThatThrowsWhileMeasuredIsDroppedFromTheResults() {
    final Map<String, Operation> systems = new LinkedHashMap<>();
    systems.put("L", iteration -> 1);
    systems.put("S", iteration -> {
      if (iteration == 3) {
        throw new IllegalStateException("lost the connection");
      }
      return 1;
    });
    final Harness.Outcome outcome = new Harness(1, 2, 2).measure("w1", systems);
    assertEquals(List.of("L"), List.copyOf(outcome.measured().keySet()));
    assertEquals(4, outcome.measured().get("L").count());
    assertEquals(Map.of("S", "failed: lost the connection"), outcome.failures());
  }
}
