package io.shardset.bench;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How long one system took to plan one point query at one shard count (w8), and how long
 * opening its connection took, which for ShardSet includes reading every shard's metadata.
 *
 * @param loadMillis the time to open the connection and load the schema, once
 * @param planning the planning latencies; empty when one run took longer than {@code cap}
 *     and the measurement was stopped
 * @param cap the longest a single run was allowed to take
 */
public record PlanningPoint(String system, int shards, double loadMillis,
    Optional<Stats> planning, Duration cap) {
  public PlanningPoint {
    Objects.requireNonNull(system, "system");
    Objects.requireNonNull(planning, "planning");
    Objects.requireNonNull(cap, "cap");
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be positive: " + shards);
    }
  }

  /** The median planning time, or the text saying the run was stopped. */
  public String medianText() {
    return planning.map(s -> Report.millis(s.medianMillis()))
        .orElse("over " + cap.toSeconds() + " s");
  }
}
