package io.shardset.bench;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which workloads a run measures: every one (the default), or only some of w16 to w23 named by
 * {@code --workloads}, to try them quickly without the hour the others take.
 *
 * @param only the workloads named, or empty for every workload
 */
public record WorkloadSelection(Set<String> only) {
  /** The workloads {@code --workloads} can name. */
  public static final List<String> SELECTABLE = List.of("w16", "w17", "w18", "w19", "w21", "w22",
      "w23", "w24");

  public WorkloadSelection {
    only = Set.copyOf(Objects.requireNonNull(only, "only"));
  }

  /** Every workload. */
  public static WorkloadSelection all() {
    return new WorkloadSelection(Set.of());
  }

  /** The workloads of a comma-separated list such as {@code w16,w18}. */
  public static WorkloadSelection parse(String list) {
    final Set<String> named = new LinkedHashSet<>();
    for (String part : list.split(",")) {
      final String id = part.trim().toLowerCase(java.util.Locale.ROOT);
      if (!SELECTABLE.contains(id)) {
        throw new IllegalArgumentException("--workloads takes " + String.join(", ", SELECTABLE)
            + "; not " + (id.isEmpty() ? "an empty name" : id));
      }
      named.add(id);
    }
    return new WorkloadSelection(named);
  }

  /** Whether every workload runs, w1 to w15 included. */
  public boolean everything() {
    return only.isEmpty();
  }

  /** Whether workload {@code id} runs. */
  public boolean runs(String id) {
    return only.isEmpty() || only.contains(id);
  }
}
