package io.shardset.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongUnaryOperator;

/**
 * w17's client CPU per routed point query: one client of each system at a time, in rounds that
 * take turns (the order rotating each round), each query's latency and the CPU time of the
 * thread that runs it recorded, and the process's CPU over its rounds, per query, beside it
 * (it counts the threads a system hands work to, and the JIT and collector). One client leaves
 * the machine's cores to the shards and the client, so the figures are each system's own cost
 * rather than its queueing.
 */
final class PointQueryCpu {
  /** The most CPU per query X may spend beyond D's (the target). */
  static final double TARGET_CPU_MICROS_OVER_D = 8;
  /** The most X's median latency may exceed D's (the target). */
  static final double TARGET_P50_MICROS_OVER_D = 30;

  /** A query of one system's client; returns a checksum of what it read. */
  @FunctionalInterface
  interface Query {
    long run(long key) throws Exception;
  }

  /**
   * One system's figures.
   *
   * @param threadCpu the client thread's CPU time per query
   * @param latency the latency per query
   * @param processMicrosPerQuery the process's CPU per query over all its rounds
   */
  record Point(String system, Stats threadCpu, Stats latency, double processMicrosPerQuery) {
  }

  private final Map<String, Query> systems;
  private final int rounds;
  private final int queriesPerRound;

  PointQueryCpu(Map<String, Query> systems, int rounds, int queriesPerRound) {
    this.systems = new LinkedHashMap<>(Objects.requireNonNull(systems, "systems"));
    this.rounds = rounds;
    this.queriesPerRound = queriesPerRound;
  }

  /** Runs the rounds on this thread, the key of query n from {@code keys}. */
  List<Point> measure(LongUnaryOperator keys) throws Exception {
    final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (!threads.isCurrentThreadCpuTimeSupported()) {
      throw new IllegalStateException("this JVM does not measure a thread's CPU time");
    }
    final List<String> names = new ArrayList<>(systems.keySet());
    final Map<String, long[]> cpu = new LinkedHashMap<>();
    final Map<String, long[]> latency = new LinkedHashMap<>();
    final Map<String, long[]> process = new LinkedHashMap<>();
    for (String name : names) {
      cpu.put(name, new long[rounds * queriesPerRound]);
      latency.put(name, new long[rounds * queriesPerRound]);
      process.put(name, new long[1]);
    }
    long n = 0;
    for (int round = 0; round < rounds; round++) {
      for (int turn = 0; turn < names.size(); turn++) {
        final String name = names.get((turn + round) % names.size());
        final Query query = systems.get(name);
        final long[] cpus = cpu.get(name);
        final long[] latencies = latency.get(name);
        final long processStart = CpuTime.processNanos();
        for (int i = 0; i < queriesPerRound; i++) {
          final long key = keys.applyAsLong(n++);
          final long cpuStart = threads.getCurrentThreadCpuTime();
          final long start = System.nanoTime();
          query.run(key);
          latencies[round * queriesPerRound + i] = System.nanoTime() - start;
          cpus[round * queriesPerRound + i] = threads.getCurrentThreadCpuTime() - cpuStart;
        }
        // Summed over the rounds: the process's CPU time advances in ticks of milliseconds.
        process.get(name)[0] += CpuTime.processNanos() - processStart;
      }
    }
    final List<Point> points = new ArrayList<>();
    for (String name : names) {
      points.add(new Point(name, Stats.of(cpu.get(name)), Stats.of(latency.get(name)),
          process.get(name)[0] / 1e3 / ((long) rounds * queriesPerRound)));
    }
    return points;
  }

  /** The report's table: a row per system. */
  static ResultTable table(String backend, List<Point> points, int rounds, int perRound) {
    final List<List<String>> rows = new ArrayList<>();
    for (Point p : points) {
      rows.add(List.of(p.system(), micros(p.threadCpu().medianMillis()),
          micros(p.threadCpu().p99Millis()), micros(p.latency().medianMillis()),
          micros(p.latency().p99Millis()),
          String.format(Locale.ROOT, "%.1f", p.processMicrosPerQuery())));
    }
    return new ResultTable("w17 client CPU per routed point query, one client (" + backend
        + ")", "One client of each system at a time, " + rounds + " rounds of " + perRound
        + " queries taking turns (the w1 query, prepared, a new key each time); CPU is the"
        + " client thread's CPU time per query, and beside it the JVM's process CPU per"
        + " query over the system's rounds (every thread, JIT and GC included).",
        List.of("system", "thread CPU p50 µs", "thread CPU p99 µs", "latency p50 µs",
            "latency p99 µs", "process CPU µs/query"), rows);
  }

  /** The target lines: X's CPU and median latency against D's. */
  static List<String> targets(String backend, List<Point> points) {
    final Point x = at(points, "X");
    final Point d = at(points, "D");
    final String what = "w17 one client (" + backend + "): ";
    if (x == null || d == null) {
      return List.of(TargetCheck.unchecked(what + "X's client CPU per query", "X or D not"
          + " measured"));
    }
    final double xCpu = x.processMicrosPerQuery();
    final double dCpu = d.processMicrosPerQuery();
    final double xP50 = x.latency().medianMillis() * 1000;
    final double dP50 = d.latency().medianMillis() * 1000;
    return List.of(
        TargetCheck.atMost(String.format(Locale.ROOT, "%sX's process CPU per query - D's = %.1f"
            + " - %.1f µs", what, xCpu, dCpu), xCpu - dCpu, TARGET_CPU_MICROS_OVER_D, "µs"),
        TargetCheck.atMost(String.format(Locale.ROOT, "%sX's median latency - D's = %.1f"
            + " - %.1f µs", what, xP50, dP50), xP50 - dP50, TARGET_P50_MICROS_OVER_D, "µs"));
  }

  private static Point at(List<Point> points, String system) {
    return points.stream().filter(p -> p.system().equals(system)).findFirst().orElse(null);
  }

  private static String micros(double millis) {
    return String.format(Locale.ROOT, "%.1f", millis * 1000);
  }
}
