package io.shardset.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs the operations of several systems in interleaved rounds and summarizes each system's
 * latencies; see the package documentation for why it is built this way.
 *
 * <p>A harness may have a time budget, so that slow workloads on a large data set end in
 * reasonable time: once the measured rounds have taken longer than the budget, no further
 * round starts, though at least {@link #MIN_ROUNDS} are measured. And a system whose first
 * run (the agreement check) takes longer than a limit is skipped, and reported as such.
 */
public final class Harness {
  /** The fewest measured rounds a budget leaves. */
  public static final int MIN_ROUNDS = 3;

  private final int warmupRounds;
  private final int rounds;
  private final int opsPerRound;
  private final Duration budget;
  private final Duration skipAbove;

  /** A harness of {@code warmupRounds} unrecorded and {@code rounds} recorded rounds. */
  public Harness(int warmupRounds, int rounds, int opsPerRound) {
    this(warmupRounds, rounds, opsPerRound, null, null);
  }

  private Harness(int warmupRounds, int rounds, int opsPerRound, Duration budget,
      Duration skipAbove) {
    if (warmupRounds < 0 || rounds < 1 || opsPerRound < 1) {
      throw new IllegalArgumentException("need warmupRounds >= 0, rounds >= 1, opsPerRound >= 1:"
          + " " + warmupRounds + ", " + rounds + ", " + opsPerRound);
    }
    this.warmupRounds = warmupRounds;
    this.rounds = rounds;
    this.opsPerRound = opsPerRound;
    this.budget = budget;
    this.skipAbove = skipAbove;
  }

  /**
   * This harness, starting no measured round after {@code budget} (past {@link #MIN_ROUNDS})
   * and skipping a system whose first run takes longer than {@code skipAbove}.
   */
  public Harness limited(Duration budget, Duration skipAbove) {
    return new Harness(warmupRounds, rounds, opsPerRound, Objects.requireNonNull(budget, "budget"),
        Objects.requireNonNull(skipAbove, "skipAbove"));
  }

  /**
   * Measures every system's operation; the result has the systems in the given order.
   *
   * @throws IllegalStateException if the systems' first answers differ
   */
  public Map<String, Outcome> measure(String workload, Map<String, Operation> systems)
      throws Exception {
    Objects.requireNonNull(systems, "systems");
    final Map<String, Outcome> result = new LinkedHashMap<>();
    final Map<String, Operation> measured = new LinkedHashMap<>();
    checkAgreement(workload, systems).forEach((name, firstRunNanos) -> {
      if (skipAbove != null && firstRunNanos > skipAbove.toNanos()) {
        result.put(name, Outcome.note(String.format("skipped: took %.1f s for one run",
            firstRunNanos / 1e9)));
      } else {
        result.put(name, null);
        measured.put(name, systems.get(name));
      }
    });
    if (!measured.isEmpty()) {
      result.putAll(rounds(measured));
    }
    return result;
  }

  private Map<String, Outcome> rounds(Map<String, Operation> systems) throws Exception {
    final List<String> names = new ArrayList<>(systems.keySet());
    final Map<String, long[]> samples = new LinkedHashMap<>();
    for (String name : names) {
      samples.put(name, new long[rounds * opsPerRound]);
    }
    int iteration = 0;
    int recordedRounds = 0;
    long measuredStart = 0;
    for (int round = 0; round < warmupRounds + rounds; round++) {
      final boolean recorded = round >= warmupRounds;
      if (recorded && recordedRounds == 0) {
        measuredStart = System.nanoTime();
      }
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
            target[recordedRounds * opsPerRound + op] = elapsed;
          }
        }
      }
      // Every system sees the same keys in a round, and new keys in the next one.
      iteration += opsPerRound;
      if (recorded) {
        recordedRounds++;
        if (budget != null && recordedRounds >= MIN_ROUNDS
            && System.nanoTime() - measuredStart > budget.toNanos()) {
          break;
        }
      }
    }
    final int kept = recordedRounds * opsPerRound;
    final Map<String, Outcome> result = new LinkedHashMap<>();
    samples.forEach((name, latencies) ->
        result.put(name, Outcome.measured(Stats.of(Arrays.copyOf(latencies, kept)))));
    return result;
  }

  /** Runs each system once, compares the answers, and returns how long each run took. */
  private static Map<String, Long> checkAgreement(String workload,
      Map<String, Operation> systems) throws Exception {
    final Map<String, Long> durations = new LinkedHashMap<>();
    String firstName = null;
    long first = 0;
    for (Map.Entry<String, Operation> e : systems.entrySet()) {
      final long start = System.nanoTime();
      final long checksum = e.getValue().run(0);
      durations.put(e.getKey(), System.nanoTime() - start);
      if (firstName == null) {
        firstName = e.getKey();
        first = checksum;
      } else if (checksum != first) {
        throw new IllegalStateException(workload + ": " + e.getKey() + " answered checksum "
            + checksum + " but " + firstName + " answered " + first);
      }
    }
    return durations;
  }
}
