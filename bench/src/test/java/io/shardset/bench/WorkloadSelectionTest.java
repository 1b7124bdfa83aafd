package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link WorkloadSelection}. */
class WorkloadSelectionTest {
  @Test void byDefaultEveryWorkloadRuns() {
    final WorkloadSelection all = WorkloadSelection.all();
    assertTrue(all.everything());
    assertTrue(all.runs("w1"));
    assertTrue(all.runs("w18"));
  }

  @Test void aListRunsOnlyTheWorkloadsItNames() {
    final WorkloadSelection some = WorkloadSelection.parse("w16, W18");
    assertEquals(Set.of("w16", "w18"), some.only());
    assertFalse(some.everything());
    assertTrue(some.runs("w18"));
    assertFalse(some.runs("w17"));
    assertFalse(some.runs("w1"));
  }

  @Test void anOlderOrUnknownWorkloadIsRefusedWithTheNamesThatAreAccepted() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WorkloadSelection.parse("w16,w3"));
    assertEquals("--workloads takes w16, w17, w18, w19, w21, w22, w23, w24; not w3",
        e.getMessage());
  }
}
