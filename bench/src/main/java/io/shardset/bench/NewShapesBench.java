package io.shardset.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Runs w16 ({@link NewShapes}): X through {@code jdbc:shardset:} at each shard count of the
 * tiny shards, taking turns in this JVM, and N (Calcite's JDBC adapter) at 4 shards in a child
 * JVM, since its planning can run away; the results go into the report as rows of their own
 * workloads, and the targets as lines.
 */
final class NewShapesBench {
  /** N's cap on one statement; N plans a point query at 16 shards in over 30 s (w8). */
  private static final Duration N_CAP = Duration.ofSeconds(30);
  /** New shapes of each kind each connection plans before any is measured. */
  static final int WARM_UP_SHAPES = 300;

  private NewShapesBench() {
  }

  static void run(Report report, List<TinyShards> tiny, Harness harness, int scale)
      throws Exception {
    final List<Connection> connections = new ArrayList<>();
    try {
      final Map<Integer, Connection> byCount = new LinkedHashMap<>();
      for (TinyShards shards : tiny) {
        final Properties info = new Properties();
        info.setProperty("model", "inline:" + Models.shardSet(shards.urls(), 1));
        final Connection c = DriverManager.getConnection("jdbc:shardset:", info);
        connections.add(c);
        byCount.put(shards.urls().size(), c);
        // The JVM's first statements load Calcite's classes, and its compiler needs hundreds
        // before planning runs compiled (a new point shape at 4 shards: 7 to 9 ms over the
        // first 500, 4.5 ms over the first 1,500): a server that has run for a while has both
        // behind it, so no measured shape should pay either. These shapes are never measured
        // (their salt is their own).
        for (int i = 0; i < WARM_UP_SHAPES; i++) {
          for (NewShapes.Shape shape : NewShapes.Shape.values()) {
            NewShapes.prepareAndRun(c, NewShapes.sql(shape, "warm", i, 1 + i));
          }
        }
      }
      for (NewShapes.Shape shape : NewShapes.Shape.values()) {
        final String workload = shape == NewShapes.Shape.POINT
            ? "w16 new point query shape" : "w16 new three-way join shape";
        final Map<String, Operation> operations = new LinkedHashMap<>();
        byCount.forEach((count, c) -> operations.put("X@" + count,
            NewShapes.operation(c, shape, "x" + count)));
        System.out.println("Running " + workload + " on " + String.join(", ",
            operations.keySet()) + ", N@4");
        final Map<String, Outcome> outcomes = new LinkedHashMap<>(
            harness.measure(workload, operations));
        final PlanningPoint n = UnionAllPlanning.measure(4, scale, 3 * scale + 6, N_CAP, shape);
        outcomes.put("N@4", n.planning().map(Outcome::measured).orElse(
            Outcome.note("stopped: one statement took over " + N_CAP.toSeconds() + " s")));
        report.add(workload, outcomes);
        final double target = shape == NewShapes.Shape.POINT
            ? NewShapes.POINT_TARGET_MILLIS : NewShapes.JOIN_TARGET_MILLIS;
        byCount.keySet().forEach(count -> report.addTarget(target(workload, count,
            outcomes.get("X@" + count), target)));
      }
    } finally {
      Connections.closeAll(connections);
    }
  }

  /** The target line of X at one shard count: its median prepare + execute. */
  static String target(String workload, int shards, Outcome outcome, double limit) {
    final String what = String.format(Locale.ROOT, "%s, X at %d shards, median", workload,
        shards);
    if (outcome == null) {
      return TargetCheck.unchecked(what, "not run");
    }
    if (outcome.stats() == null) {
      // A shape skipped for its slow first run missed the target by far; a failure did not
      // measure it.
      return outcome.note().startsWith("skipped")
          ? what + ": " + outcome.note() + " (at most " + TargetCheck.number(limit)
              + " ms): missed"
          : TargetCheck.unchecked(what, outcome.note());
    }
    return TargetCheck.atMost(what, outcome.stats().medianMillis(), limit, "ms");
  }
}
