package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link Report}. */
class ReportTest {
  @Test void aSystemNotMeasuredGetsARowSayingWhyUnderItsWorkload() {
    final Report report = new Report();
    final Map<String, Stats> w1 = new LinkedHashMap<>();
    w1.put("L", new Stats(10, 0.5, 2.0, 1_000));
    report.add("w1", w1);
    report.failed("w1", Map.of("S", "failed: Unsupported | syntax"));
    report.add("w3", Map.of("L", new Stats(10, 25, 30, 40)));
    assertEquals(String.format("%-28s %-6s %12s %12s %12s%n", "workload", "system", "median ms",
            "p99 ms", "ops/s")
        + String.format("%-28s %-6s %12s %12s %12s%n", "w1", "L", "0.500", "2.0", "1,000")
        + String.format("%-28s %-6s %s%n", "w1", "S", "failed: Unsupported | syntax")
        + String.format("%-28s %-6s %12s %12s %12s%n", "w3", "L", "25.0", "30.0", "40"),
        report.table());
    assertTrue(report.markdown().contains("| w1 | S | failed: Unsupported \\| syntax | | |\n"),
        report.markdown());
    assertEquals(1, report.failures().size());
  }
}
