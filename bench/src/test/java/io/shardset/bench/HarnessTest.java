package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    final Map<String, Outcome> result = new Harness(1, 2, 2).measure("w", systems);
    assertEquals(List.of(
        // the agreement check
        "A0", "B0", "C0",
        // warm-up round
        "A0", "A1", "B0", "B1", "C0", "C1",
        // measured rounds, each starting one system later
        "B2", "B3", "C2", "C3", "A2", "A3",
        "C4", "C5", "A4", "A5", "B4", "B5"), calls);
    assertEquals(List.of("A", "B", "C"), List.copyOf(result.keySet()));
    assertEquals(4, result.get("A").stats().count());
  }

  @Test void systemsThatAnswerDifferentlyAreReportedAndNotMeasured() {
    final Map<String, Operation> systems = new LinkedHashMap<>();
    systems.put("L", iteration -> 1);
    systems.put("X", iteration -> 2);
    systems.put("N", iteration -> 1);
    final Map<String, Outcome> result = new Harness(0, 1, 1).measure("w3", systems);
    assertEquals(List.of("L", "X", "N"), List.copyOf(result.keySet()));
    assertEquals(1, result.get("N").stats().count());
    assertEquals(Outcome.note("wrong answer: checksum 2 but L answered 1"), result.get("X"));
  }

  @Test void aSystemThatThrowsIsReportedWithItsMessage() {
    final Map<String, Operation> systems = new LinkedHashMap<>();
    systems.put("L", iteration -> 1);
    systems.put("S", iteration -> {
      throw new SQLException("Unsupported SQL\n  near AVG");
    });
    final Map<String, Outcome> result = new Harness(0, 1, 1).measure("w3", systems);
    assertEquals(1, result.get("L").stats().count());
    assertEquals(Outcome.note("failed: Unsupported SQL near AVG"), result.get("S"));
  }

  @Test void aSystemThatThrowsWhileMeasuredGetsANoteInsteadOfLatencies() {
    final Map<String, Operation> systems = new LinkedHashMap<>();
    systems.put("L", iteration -> 1);
    systems.put("S", iteration -> {
      if (iteration == 3) {
        throw new IllegalStateException("lost the connection");
      }
      return 1;
    });
    final Map<String, Outcome> result = new Harness(1, 2, 2).measure("w1", systems);
    assertEquals(List.of("L", "S"), List.copyOf(result.keySet()));
    assertEquals(4, result.get("L").stats().count());
    assertEquals(Outcome.note("failed: lost the connection"), result.get("S"));
  }

  @Test void aSystemWhoseFirstRunIsTooSlowIsSkippedAndTheOthersMeasured() throws Exception {
    final Map<String, Operation> systems = new LinkedHashMap<>();
    systems.put("L", iteration -> 1);
    systems.put("N", iteration -> {
      // Busy until the clock has moved past the limit: a slow first run, without sleeping.
      final long start = System.nanoTime();
      while (System.nanoTime() - start < 2_000_000) {
        Thread.onSpinWait();
      }
      return 1;
    });
    final Map<String, Outcome> result = new Harness(0, 2, 1)
        .limited(Duration.ofDays(1), Duration.ofNanos(1_000_000)).measure("w", systems);
    assertEquals(List.of("L", "N"), List.copyOf(result.keySet()));
    assertEquals(2, result.get("L").stats().count());
    assertTrue(result.get("N").note().startsWith("skipped: took "), result.get("N").note());
  }

  @Test void anExhaustedBudgetStopsAfterTheMinimumRounds() throws Exception {
    final Map<String, Operation> systems = new LinkedHashMap<>();
    systems.put("A", iteration -> 1);
    final Map<String, Outcome> result = new Harness(1, 10, 2)
        .limited(Duration.ZERO, Duration.ofDays(1)).measure("w", systems);
    assertEquals(Harness.MIN_ROUNDS * 2, result.get("A").stats().count());
  }
}
