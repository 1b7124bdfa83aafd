package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link ProbeResult} and how {@link StreamingWorkload} reads a probe's failure. */
class ProbeResultTest {
  @Test void theResultLineIsFoundAmongOtherOutput() {
    final ProbeResult result = new ProbeResult(1_000_000, -42, 2.5, 64L << 20);
    assertEquals(Optional.of(result),
        ProbeResult.parse("a warning\n" + result.format() + "\nanother line\n"));
  }

  @Test void outputWithoutAResultLineHasNoResult() {
    assertEquals(Optional.empty(), ProbeResult.parse("Exception in thread \"main\"\n"));
    assertEquals(Optional.empty(), ProbeResult.parse("probe: rows=12 seconds=1.0\n"));
  }

  @Test void describesTheRateAndHeap() {
    assertEquals("1,000 rows in 2.0 s: 500 rows/s; peak heap 3 MiB",
        new ProbeResult(1_000, 0, 2.0, 3L << 20).describe());
  }

  @Test void anOutOfMemoryErrorIsNamedWithTheHeapLimit() {
    assertEquals("failed: OutOfMemoryError (-Xmx128m)", StreamingWorkload.failureOf(
        "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n\tat x"));
    assertEquals("failed: java.sql.SQLException: no such table",
        StreamingWorkload.failureOf("java.sql.SQLException: no such table\n\tat y\n"));
    assertEquals("failed: no output", StreamingWorkload.failureOf(""));
  }
}
