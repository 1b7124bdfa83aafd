package io.shardset.reshard;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Progress lines and the final report of a move, on a clock the test sets. */
class MoveProgressTest {
  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong clock = new AtomicLong(7 * SECOND);
  private final MoveProgress progress = new MoveProgress(clock::get);

  @Test void lineShowsRowsRangesRateAndEta() {
    progress.step("copy");
    progress.rows(12_345, 20_046);
    progress.ranges(48, 96);
    clock.addAndGet(SECOND * 3 / 2);
    // 12,345 rows in 1.5 s: 8,230 rows/s; 7,701 rows left take 0.94 s.
    assertEquals("copy: 12,345 / 20,046 rows (61.6 %), 48 / 96 ranges, 8,230 rows/s, ETA 1 s",
        progress.line().render());
  }

  @Test void etaInMinutesAndHours() {
    progress.step("copy");
    progress.rows(1_000, 1_000_000);
    clock.addAndGet(10 * SECOND);
    assertEquals("copy: 1,000 / 1,000,000 rows (0.1 %), 100 rows/s, ETA 2 h 46 min",
        progress.line().render());
    progress.rows(10_000, 22_000);
    assertEquals("copy: 10,000 / 22,000 rows (45.5 %), 1,000 rows/s, ETA 12 s",
        progress.line().render());
    progress.rows(10_000, 75_000);
    assertEquals("copy: 10,000 / 75,000 rows (13.3 %), 1,000 rows/s, ETA 1 min 5 s",
        progress.line().render());
  }

  @Test void lineWithoutTotalsOrRows() {
    assertEquals("plan: 0 rows, 0 rows/s", progress.line().render());
    progress.step("detach");
    progress.rows(0, 500);
    clock.addAndGet(SECOND);
    assertEquals("detach: 0 / 500 rows (0.0 %), 0 rows/s, ETA ?", progress.line().render());
    progress.rows(500, 500);
    assertEquals("detach: 500 / 500 rows (100.0 %), 500 rows/s, ETA 0 s",
        progress.line().render());
  }

  @Test void atMostOneLineASecond() {
    progress.step("copy");
    progress.rows(10, 100);
    assertEquals(Optional.of("copy: 10 / 100 rows (10.0 %), 0 rows/s, ETA ?"),
        progress.lineIfDue().map(ProgressLine::render));
    clock.addAndGet(SECOND - 1);
    assertEquals(Optional.empty(), progress.lineIfDue());
    clock.addAndGet(1);
    progress.rows(20, 100);
    assertEquals(Optional.of("copy: 20 / 100 rows (20.0 %), 20 rows/s, ETA 4 s"),
        progress.lineIfDue().map(ProgressLine::render));
    clock.addAndGet(SECOND / 2);
    assertEquals(Optional.empty(), progress.lineIfDue());
  }

  @Test void reportGivesPairsTotalsFractionAndRate() {
    progress.allRows(100_000);
    progress.pairRows("s0", "s4", 5_012);
    progress.pairRows("s1", "s4", 4_990);
    progress.pairRows("s0", "s4", 8);
    clock.addAndGet(SECOND * 5 / 2);
    assertEquals("""
        moved 10,010 rows of 100,000 (10.0 %) in 2.5 s, 4,004 rows/s
          s0 -> s4: 5,020 rows
          s1 -> s4: 4,990 rows
        """, progress.report());
  }

  @Test void reportOfALongMoveWithoutKnownTotal() {
    progress.pairRows("s3", "s0", 1_200_000);
    clock.addAndGet(125 * SECOND);
    assertEquals("moved 1,200,000 rows in 2 min 5 s, 9,600 rows/s\n  s3 -> s0: 1,200,000 rows\n",
        progress.report());
  }
}
