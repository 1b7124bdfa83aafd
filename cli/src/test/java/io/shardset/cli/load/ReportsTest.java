package io.shardset.cli.load;

import io.shardset.execution.ProgressMeters;
import io.shardset.execution.ShardMetrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link BadRows}, {@link ProgressReporter} and {@link LoadResult}'s summary. */
class ReportsTest {
  private final StringWriter text = new StringWriter();
  private final PrintWriter out = new PrintWriter(text, true);
  private final AtomicLong clock = new AtomicLong(1_000L);

  private String output() {
    return text.toString().replace(System.lineSeparator(), "\n");
  }

  @Test void badRowsAreCountedAndTheFirstListed() {
    final BadRows bad = new BadRows(2);
    bad.add(new BadRow("orders.csv", 17, "column AMOUNT: '12,5' is not a DECIMAL(12, 2)"));
    bad.add(new BadRow("orders.csv", 20, "expected 6 fields, found 5"));
    bad.add(new BadRow("more.csv", 3, "expected 6 fields, found 7"));
    assertEquals(3, bad.count());
    assertEquals(List.of("orders.csv:17: column AMOUNT: '12,5' is not a DECIMAL(12, 2)",
        "orders.csv:20: expected 6 fields, found 5", "... and 1 more bad rows"), bad.report());
  }

  @Test void linesAtIntervals() {
    final ProgressReporter progress = ProgressReporter.lines(out, 1_000, clock::get, 100);
    clock.addAndGet(50);
    progress.update(10, 100);
    assertEquals("", output());
    clock.addAndGet(50);
    progress.update(20, 250);
    // 20 rows in 100 ns.
    assertEquals("20 rows (25%), 200,000,000 rows/s\n", output());
    clock.addAndGet(100);
    progress.finish(40, 1_000);
    assertEquals("20 rows (25%), 200,000,000 rows/s\n40 rows (100%), 200,000,000 rows/s\n",
        output());
  }

  /** The rows loaded reach the gauges at every update, not only when a line is due. */
  @Test void rowsReachTheGauges() {
    final ShardMetrics metrics = new ShardMetrics();
    metrics.registry().add(new SimpleMeterRegistry());
    try (ProgressMeters meters = ProgressMeters.of(metrics, "load", "ORDERS")) {
      final ProgressReporter progress =
          ProgressReporter.lines(out, 1_000, clock::get, 100).metered(meters);
      progress.update(10, 100);
      assertEquals(10, gauge(metrics, "shardset.load.rows.done"));
      assertEquals(0, gauge(metrics, "shardset.load.rows.total"));
      progress.finish(40, 1_000);
      assertEquals(40, gauge(metrics, "shardset.load.rows.done"));
      assertEquals(40, gauge(metrics, "shardset.load.rows.total"));
    } finally {
      metrics.close();
    }
  }

  private static double gauge(ShardMetrics metrics, String name) {
    return metrics.registry().get(name).tag("target", "ORDERS").gauge().value();
  }

  @Test void noLinesForAShortLoad() {
    final ProgressReporter progress = ProgressReporter.lines(out, 1_000, clock::get, 100);
    progress.update(1, 10);
    progress.finish(1, 1_000);
    assertEquals("", output());
  }

  @Test void barRedrawnInPlace() {
    final ProgressReporter progress = ProgressReporter.bar(out, 200, clock::get);
    clock.addAndGet(1_000_000_000L);
    progress.update(500, 100);
    progress.finish(1_000, 200);
    assertEquals("\r[###############---------------]  50% 500 rows, 500 rows/s"
        + "\r[##############################] 100% 1,000 rows, 1,000 rows/s\n", output());
  }

  @Test void summaries() {
    final LoadResult done = new LoadResult("S.ORDERS", List.of("s0", "s1"), List.of(3L, 4L),
        7, 1, List.of("a.csv:3: expected 2 fields, found 1"), null, 2_000_000_000L);
    assertEquals(List.of("Loaded 7 rows into S.ORDERS in 2.0 s (3 rows/s)",
        "  rows per shard: s0=3 s1=4",
        "  bad rows: 1 (skipped)",
        "    a.csv:3: expected 2 fields, found 1"), done.summary());
    final LoadResult stopped = new LoadResult("S.ORDERS", List.of("s0", "s1"), List.of(1L, 0L),
        1, 1, List.of(), new BadRow("a.csv", 3, "expected 2 fields, found 1"), 1_000_000_000L);
    assertEquals(List.of("Stopped after 1 rows into S.ORDERS in 1.0 s (1 rows/s)",
        "  rows per shard: s0=1 s1=0",
        "  bad row: a.csv:3: expected 2 fields, found 1",
        "  the rows before it are committed; nothing of it or after it was written."
            + " Fix it and run again, or give --skip-bad"), stopped.summary());
  }
}
