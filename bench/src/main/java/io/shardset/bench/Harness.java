package io.shardset.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs the operations of several systems in interleaved rounds and summarizes each system's
 * latencies; see the package documentation for why it is built this way.
 */
public final class Harness {
  private final int warmupRounds;
  private final int rounds;
  private final int opsPerRound;

  /** A harness of {@code warmupRounds} unrecorded and {@code rounds} recorded rounds. */
  public Harness(int warmupRounds, int rounds, int opsPerRound) {
    if (warmupRounds < 0 || rounds < 1 || opsPerRound < 1) {
      throw new IllegalArgumentException("need warmupRounds >= 0, rounds >= 1, opsPerRound >= 1:"
          + " " + warmupRounds + ", " + rounds + ", " + opsPerRound);
    }
    this.warmupRounds = warmupRounds;
    this.rounds = rounds;
    this.opsPerRound = opsPerRound;
  }

  /**
   * Measures every system's operation; the result has the systems in the given order.
   *
   * @throws IllegalStateException if the systems' first answers differ
   */
  public Map<String, Stats> measure(String workload, Map<String, Operation> systems)
      throws Exception {
    Objects.requireNonNull(systems, "systems");
    checkAgreement(workload, systems);
    final List<String> names = new ArrayList<>(systems.keySet());
    final Map<String, long[]> samples = new LinkedHashMap<>();
    for (String name : names) {
      samples.put(name, new long[rounds * opsPerRound]);
    }
    int iteration = 0;
    for (int round = 0; round < warmupRounds + rounds; round++) {
      final boolean recorded = round >= warmupRounds;
      // Rotate who goes first, so no system always runs right after the same neighbour.
      for (int turn = 0; turn < names.size(); turn++) {
        final String name = names.get((turn + round) % names.size());
        final Operation operation = systems.get(name);
        final long[] target = samples.get(name);
        for (int op = 0; op < opsPerRound; op++) {
          final long start = System.nanoTime();
          operation.run(iteration + op);
          final long elapsed = System.nanoTime() - start;
          if (recorded) {
            target[(round - warmupRounds) * opsPerRound + op] = elapsed;
          }
        }
      }
      // Every system sees the same keys in a round, and new keys in the next one.
      iteration += opsPerRound;
    }
    final Map<String, Stats> result = new LinkedHashMap<>();
    samples.forEach((name, latencies) -> result.put(name, Stats.of(latencies)));
    return result;
  }

  private static void checkAgreement(String workload, Map<String, Operation> systems)
      throws Exception {
    String firstName = null;
    long first = 0;
    for (Map.Entry<String, Operation> e : systems.entrySet()) {
      final long checksum = e.getValue().run(0);
      if (firstName == null) {
        firstName = e.getKey();
        first = checksum;
      } else if (checksum != first) {
        throw new IllegalStateException(workload + ": " + e.getKey() + " answered checksum "
            + checksum + " but " + firstName + " answered " + first);
      }
    }
  }
}
