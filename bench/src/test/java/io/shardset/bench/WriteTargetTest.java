package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link WriteTarget}. */
class WriteTargetTest {
  @Test void xWithinOneAndAHalfTimesDAndNoSlowerThanSMeetsIt() {
    assertEquals("w11 (H2): X/D = 0.150/0.100 = 1.50 (at most 1.5), S 0.150 ms: met",
        WriteTarget.check("w11 (H2)", medians(0.100, 0.150, 0.150)));
  }

  @Test void eachWayOfMissingItIsNamed() {
    assertEquals("w: X/D = 0.151/0.100 = 1.51 (at most 1.5), S 0.200 ms: missed (X over 1.5 x D)",
        WriteTarget.check("w", medians(0.100, 0.151, 0.200)));
    assertEquals("w: X/D = 0.120/0.100 = 1.20 (at most 1.5), S 0.110 ms: missed (X slower than S)",
        WriteTarget.check("w", medians(0.100, 0.120, 0.110)));
    assertEquals("w: X/D = 2.000/1.000 = 2.00 (at most 1.5), S 1.500 ms:"
        + " missed (X over 1.5 x D and slower than S)",
        WriteTarget.check("w", medians(1.0, 2.0, 1.5)));
  }

  @Test void aSystemNotMeasuredLeavesTheTargetUncheckedAndSaysWhy() {
    final Map<String, Outcome> outcomes = medians(0.1, 0.1, 0.1);
    outcomes.put("X", Outcome.note("failed: Table 'ORDERS_W' is not modifiable"));
    assertEquals("w11: not checked, X not measured: failed: Table 'ORDERS_W' is not modifiable",
        WriteTarget.check("w11", outcomes));
    final Map<String, Outcome> withoutS = medians(0.1, 0.1, 0.1);
    withoutS.remove("S");
    assertEquals("w11: not checked, S did not run", WriteTarget.check("w11", withoutS));
  }

  @Test void theReportListsTargetsAfterTheResults() {
    final Report report = new Report();
    report.add("w11", medians(0.1, 0.12, 0.2));
    report.addTarget(WriteTarget.check("w11", medians(0.1, 0.12, 0.2)));
    final String line = "w11: X/D = 0.120/0.100 = 1.20 (at most 1.5), S 0.200 ms: met";
    assertTrue(report.table().endsWith("\nagainst the targets\n" + line + "\n"), report.table());
    assertTrue(report.markdown().endsWith("\n## Against the targets\n\n- " + line + "\n"),
        report.markdown());
  }

  /** D, X and S measured with these medians. */
  private static Map<String, Outcome> medians(double d, double x, double s) {
    final Map<String, Outcome> outcomes = new LinkedHashMap<>();
    outcomes.put("D", Outcome.measured(new Stats(100, d, 2 * d, 1000 / d)));
    outcomes.put("X", Outcome.measured(new Stats(100, x, 2 * x, 1000 / x)));
    outcomes.put("S", Outcome.measured(new Stats(100, s, 2 * s, 1000 / s)));
    return outcomes;
  }
}
