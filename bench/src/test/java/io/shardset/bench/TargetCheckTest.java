package io.shardset.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link TargetCheck}. */
class TargetCheckTest {
  @Test void atMostIsMetAtTheLimitAndMissedAboveIt() {
    assertEquals("w19 open: 200 ms (at most 200): met",
        TargetCheck.atMost("w19 open", 200, 200, "ms"));
    assertEquals("w19 open: 1,480 ms (at most 200): missed",
        TargetCheck.atMost("w19 open", 1480.4, 200, "ms"));
    assertEquals("w16 point: 9.50 ms (at most 10): met",
        TargetCheck.atMost("w16 point", 9.5, 10, "ms"));
  }

  @Test void atLeastIsMetAtTheLimitAndMissedBelowIt() {
    assertEquals("w17 X/D: 0.90 (at least 0.90): met",
        TargetCheck.atLeast("w17 X/D", 0.9, 0.9, ""));
    assertEquals("w17 X/D: 0.85 (at least 0.90): missed",
        TargetCheck.atLeast("w17 X/D", 0.849, 0.9, ""));
  }

  @Test void anUncheckedTargetSaysWhy() {
    assertEquals("w18: not checked, X did not run", TargetCheck.unchecked("w18", "X did not run"));
  }
}
