package io.shardset.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

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
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

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
   * Measures every system's operation and returns, in the systems' order, each one's outcome:
   * its latencies, or a note saying why it was not measured. A system whose operation throws is
   * dropped and noted as "failed: message"; one whose first answer differs from that of the
   * first system that answered is not measured and is noted as a wrong answer, so that a system
   * that returns less cannot look faster; one whose first run takes longer than the skip limit
   * is noted as skipped.
   */
  public Map<String, Outcome> measure(String workload, Map<String, Operation> systems) {
    Objects.requireNonNull(systems, "systems");
    final Map<String, Outcome> result = new LinkedHashMap<>();
    final Map<String, Operation> measured = new LinkedHashMap<>();
    firstRuns(systems).forEach((name, first) -> {
      if (first.note() != null) {
        result.put(name, Outcome.note(first.note()));
      } else if (skipAbove != null && first.nanos() > skipAbove.toNanos()) {
        result.put(name, Outcome.note(String.format(Locale.ROOT, "skipped: took %.1f s for one run",
            first.nanos() / 1e9)));
      } else {
        result.put(name, null); // keeps the systems' order; rounds() fills it in
        measured.put(name, systems.get(name));
      }
    });
    if (!measured.isEmpty()) {
      result.putAll(rounds(measured));
    }
    return result;
  }

  private Map<String, Outcome> rounds(Map<String, Operation> systems) {
    final List<String> names = new ArrayList<>(systems.keySet());
    final Map<String, String> failures = new LinkedHashMap<>();
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
    samples.forEach((name, latencies) -> result.put(name, failures.containsKey(name)
        ? Outcome.note(failures.get(name))
        : Outcome.measured(Stats.of(Arrays.copyOf(latencies, kept)))));
    return result;
  }

  /** How a system's first run (the agreement check) went: its duration, or why it failed. */
  private record FirstRun(long nanos, String note) {
  }

  /**
   * Runs each system once and compares its answer with that of the first system that answered;
   * a system that fails or disagrees gets a note.
   */
  private static Map<String, FirstRun> firstRuns(Map<String, Operation> systems) {
    final Map<String, FirstRun> result = new LinkedHashMap<>();
    String firstName = null;
    long first = 0;
    for (Map.Entry<String, Operation> e : systems.entrySet()) {
      final long start = System.nanoTime();
      final long checksum;
      try {
        checksum = e.getValue().run(0);
      } catch (Exception failure) {
        result.put(e.getKey(), new FirstRun(0, failed(failure)));
        continue;
      }
      final long nanos = System.nanoTime() - start;
      if (firstName == null) {
        firstName = e.getKey();
        first = checksum;
      } else if (checksum != first) {
        result.put(e.getKey(), new FirstRun(nanos, "wrong answer: checksum " + checksum
            + " but " + firstName + " answered " + first));
        continue;
      }
      result.put(e.getKey(), new FirstRun(nanos, null));
    }
    return result;
  }

  /** "failed: " and the message of the failure, on one line. */
  private static String failed(Exception e) {
    final String message = e.getMessage() != null ? e.getMessage() : e.getClass().getName();
    return "failed: " + WHITESPACE.matcher(message).replaceAll(" ").trim();
  }
}
