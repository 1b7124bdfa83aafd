package io.shardset.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests the target lines of {@link NewShapesBench}. */
class NewShapesBenchTest {
  @Test void aMedianWithinTheLimitMeetsTheTarget() {
    assertEquals("w16 point, X at 4 shards, median: 8.50 ms (at most 10): met",
        NewShapesBench.target("w16 point", 4, Outcome.measured(new Stats(9, 8.5, 12, 100)), 10));
  }

  @Test void aShapeSkippedForItsSlowFirstRunMissedIt() {
    assertEquals("w16 join, X at 1024 shards, median: skipped: took 9.9 s for one run"
        + " (at most 50 ms): missed", NewShapesBench.target("w16 join", 1024,
            Outcome.note("skipped: took 9.9 s for one run"), 50));
  }

  @Test void aFailedShapeLeavesTheTargetUnchecked() {
    assertEquals("w16 join, X at 4 shards, median: not checked, failed: boom",
        NewShapesBench.target("w16 join", 4, Outcome.note("failed: boom"), 50));
  }
}
