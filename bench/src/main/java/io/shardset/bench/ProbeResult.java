package io.shardset.bench;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What one {@link StreamingProbe} run printed: the rows it read, their checksum, the seconds
 * the scan took and the peak heap it used, on one line that starts with {@value #PREFIX}.
 */
public record ProbeResult(long rows, long checksum, double seconds, long peakHeapBytes) {
  /** The start of the result line among a probe's other output. */
  public static final String PREFIX = "probe:";

  /** The result line. */
  public String format() {
    return String.format(java.util.Locale.ROOT, "%s rows=%d checksum=%d seconds=%.6f"
        + " peakHeapBytes=%d", PREFIX, rows, checksum, seconds, peakHeapBytes);
  }

  /** The result line in a probe's output, if there is one. */
  public static Optional<ProbeResult> parse(String output) {
    for (String line : output.split("\\R")) {
      if (line.startsWith(PREFIX)) {
        final Map<String, String> fields = new HashMap<>();
        for (String field : line.substring(PREFIX.length()).trim().split("\\s+")) {
          final int eq = field.indexOf('=');
          if (eq > 0) {
            fields.put(field.substring(0, eq), field.substring(eq + 1));
          }
        }
        try {
          return Optional.of(new ProbeResult(Long.parseLong(fields.get("rows")),
              Long.parseLong(fields.get("checksum")), Double.parseDouble(fields.get("seconds")),
              Long.parseLong(fields.get("peakHeapBytes"))));
        } catch (NumberFormatException | NullPointerException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  /** The result as the report shows it. */
  public String describe() {
    return String.format(Locale.ROOT, "%,d rows in %.1f s: %,.0f rows/s; peak heap %,d MiB",
        rows, seconds, seconds > 0 ? rows / seconds : 0, peakHeapBytes >> 20);
  }
}
