package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link Stats}. */
class StatsTest {
  private static final long MS = 1_000_000;

  @Test void oddCountHasTheMiddleValueAsMedian() {
    final Stats stats = Stats.of(new long[] {5 * MS, 1 * MS, 3 * MS, 2 * MS, 4 * MS});
    assertEquals(new Stats(5, 3.0, 5.0, 5 * 1e9 / (15 * MS)), stats);
  }

  @Test void evenCountHasTheMeanOfTheMiddleValuesAsMedian() {
    assertEquals(2.5, Stats.of(new long[] {4 * MS, 1 * MS, 3 * MS, 2 * MS}).medianMillis());
  }

  @Test void p99IsTheNearestRank() {
    assertEquals(99.0, Stats.of(LongStream.rangeClosed(1, 100).map(i -> i * MS).toArray())
        .p99Millis());
    assertEquals(198.0, Stats.of(LongStream.rangeClosed(1, 200).map(i -> i * MS).toArray())
        .p99Millis());
  }

  @Test void noLatenciesIsAnError() {
    assertEquals("no latencies to summarize",
        assertThrows(IllegalArgumentException.class, () -> Stats.of(new long[0]))
            .getMessage());
  }
}
