package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link Report}. */
class ReportTest {
  @Test void aSystemNotMeasuredGetsARowSayingWhyUnderItsWorkload() {
    final Report report = new Report();
    final Map<String, Outcome> w1 = new LinkedHashMap<>();
    w1.put("L", Outcome.measured(new Stats(10, 0.5, 2.0, 1_000)));
    w1.put("S", Outcome.note("failed: Unsupported | syntax"));
    report.add("w1", w1);
    report.add("w3", Map.of("L", Outcome.measured(new Stats(10, 25, 30, 4))));
    assertEquals(row("%-38s %-6s %12s %12s %12s%n", "workload", "system", "median ms",
            "p99 ms", "ops/s")
        + row("%-38s %-6s %12s %12s %12s%n", "w1", "L", "0.500", "2.0", "1,000")
        + row("%-38s %-6s %s%n", "w1", "S", "failed: Unsupported | syntax")
        + row("%-38s %-6s %12s %12s %12s%n", "w3", "L", "25.0", "30.0", "4.0"),
        report.table());
    assertTrue(report.markdown().contains("| w1 | S | failed: Unsupported \\| syntax | | |\n"),
        report.markdown());
    assertEquals(List.of(new Report.Row("w1", "S", Outcome.note("failed: Unsupported | syntax"))),
        report.notes());
  }

  /** One line of the expected table, formatted as the report formats it. */
  private static String row(String format, Object... cells) {
    return String.format(Locale.ROOT, format, cells);
  }
}
