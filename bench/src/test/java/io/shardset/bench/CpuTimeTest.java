package io.shardset.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link CpuTime}. */
class CpuTimeTest {
  @Test void cpuPerQueryIsTheReadingsDifferenceOverTheQueriesInMicroseconds() {
    // 3 ms of CPU over 1,500 queries: 2 µs each.
    assertEquals(2.0, CpuTime.microsPerQuery(10_000_000L, 13_000_000L, 1_500), 1e-9);
  }

  @Test void anUnknownReadingOrNoQueryGivesNoNumber() {
    assertTrue(Double.isNaN(CpuTime.microsPerQuery(-1, 5_000, 10)));
    assertTrue(Double.isNaN(CpuTime.microsPerQuery(5_000, 4_000, 10)));
    assertTrue(Double.isNaN(CpuTime.microsPerQuery(0, 5_000, 0)));
  }

  @Test void theProcessHasUsedSomeCpuAndTheClockDoesNotRunBackwards() {
    final long first = CpuTime.processNanos();
    final long second = CpuTime.processNanos();
    assertTrue(first > 0, "HotSpot reports the process CPU time: " + first);
    assertTrue(second >= first, first + " then " + second);
  }
}
