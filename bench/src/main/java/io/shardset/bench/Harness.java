package io.shardset.bench;

import java.util.ArrayList;
import java.util.Collections;
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
   * What a workload's systems did: the latencies of those that ran and agreed with the first
   * system that answered, in the systems' order, and for the others why they were not measured.
   */
  public record Outcome(Map<String, Stats> measured, Map<String, String> failures) {
    public Outcome {
      measured = Collections.unmodifiableMap(new LinkedHashMap<>(measured));
      failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    }
  }

  /**
   * Measures every system's operation. A system whose operation throws is dropped and reported
   * as "failed: message"; one whose first answer differs from that of the first system that
   * answered is not measured and is reported as a wrong answer, so that a system that returns
   * less cannot look faster.
   */
  public Outcome measure(String workload, Map<String, Operation> systems) {
    Objects.requireNonNull(systems, "systems");
    final Map<String, String> failures = new LinkedHashMap<>();
    final List<String> names = agreeing(systems, failures);
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
        if (failures.containsKey(name)) {
          continue;
        }
        final Operation operation = systems.get(name);
        final long[] target = samples.get(name);
        for (int op = 0; op < opsPerRound; op++) {
          final long start = System.nanoTime();
          try {
            operation.run(iteration + op);
          } catch (Exception e) {
            failures.put(name, failed(e));
            break;
          }
          final long elapsed = System.nanoTime() - start;
          if (recorded) {
            target[(round - warmupRounds) * opsPerRound + op] = elapsed;
          }
        }
      }
      // Every system sees the same keys in a round, and new keys in the next one.
      iteration += opsPerRound;
    }
    final Map<String, Stats> measured = new LinkedHashMap<>();
    samples.forEach((name, latencies) -> {
      if (!failures.containsKey(name)) {
        measured.put(name, Stats.of(latencies));
      }
    });
    return new Outcome(measured, failures);
  }

  /** The systems whose first answer agrees with the first one given; the others in failures. */
  private static List<String> agreeing(Map<String, Operation> systems,
      Map<String, String> failures) {
    final List<String> result = new ArrayList<>();
    String firstName = null;
    long first = 0;
    for (Map.Entry<String, Operation> e : systems.entrySet()) {
      final long checksum;
      try {
        checksum = e.getValue().run(0);
      } catch (Exception failure) {
        failures.put(e.getKey(), failed(failure));
        continue;
      }
      if (firstName == null) {
        firstName = e.getKey();
        first = checksum;
      } else if (checksum != first) {
        failures.put(e.getKey(), "wrong answer: checksum " + checksum + " but " + firstName
            + " answered " + first);
        continue;
      }
      result.add(e.getKey());
    }
    return result;
  }

  /** "failed: " and the message of the failure, on one line. */
  private static String failed(Exception e) {
    final String message = e.getMessage() != null ? e.getMessage() : e.getClass().getName();
    return "failed: " + message.replaceAll("\\s+", " ").trim();
  }
}
