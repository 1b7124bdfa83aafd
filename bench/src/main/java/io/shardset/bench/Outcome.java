package io.shardset.bench;

import java.util.Objects;

/**
 * What one system did in one workload: measured latencies, or a sentence in their place (a
 * streaming run's rate and heap, a skip, a failure).
 */
public record Outcome(Stats stats, String note) {
  public Outcome {
    if ((stats == null) == (note == null)) {
      throw new IllegalArgumentException("an outcome is either stats or a note");
    }
  }

  public static Outcome measured(Stats stats) {
    return new Outcome(Objects.requireNonNull(stats, "stats"), null);
  }

  public static Outcome note(String note) {
    return new Outcome(null, Objects.requireNonNull(note, "note"));
  }
}
