package io.shardset.bench;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * w8 for N, Calcite's JDBC adapter with UNION ALL views, whose planning time grows so fast
 * with the shard count that one run can take minutes. Each shard count is measured in a child
 * JVM ({@link ChildJvm}) that is killed when one step takes longer than the cap. The child's times
 * include its cold start (the first, unrecorded runs absorb most of it).
 */
public final class UnionAllPlanning {
  private static final String LOAD = "load ";
  private static final String PLAN = "plan ";
  /** The child's mode of w8: prepare the point query only. */
  private static final String PLAN_ONLY = "plan-only";

  private UnionAllPlanning() {
  }

  /**
   * Measures {@code warmup} unrecorded and {@code samples} recorded plans at {@code shards}
   * shards; a point with no planning times if any step took longer than {@code cap}.
   */
  public static PlanningPoint measure(int shards, int warmup, int samples, Duration cap)
      throws IOException, InterruptedException {
    return measure(shards, warmup, samples, cap, PLAN_ONLY);
  }

  /**
   * {@link #measure(int, int, int, Duration)} of w16: each run prepares, executes and reads a
   * new statement of {@code shape} ({@link NewShapes}), instead of only preparing w8's query.
   */
  public static PlanningPoint measure(int shards, int warmup, int samples, Duration cap,
      NewShapes.Shape shape) throws IOException, InterruptedException {
    return measure(shards, warmup, samples, cap, shape.name());
  }

  private static PlanningPoint measure(int shards, int warmup, int samples, Duration cap,
      String mode) throws IOException, InterruptedException {
    try (ChildJvm child = ChildJvm.start(UnionAllPlanning.class, List.of(
        Integer.toString(shards), Integer.toString(warmup + samples), mode))) {
      final String load = child.poll(cap);
      if (load == null || !load.startsWith(LOAD)) {
        throw new IOException("N at " + shards + " shards did not load its schema within "
            + cap.toSeconds() + " s: " + load);
      }
      final double loadMillis = Double.parseDouble(load.substring(LOAD.length()));
      final List<Long> recorded = new ArrayList<>();
      for (int i = 0; i < warmup + samples; i++) {
        final String plan = child.poll(cap);
        if (plan == null) {
          return new PlanningPoint("N", shards, loadMillis, Optional.empty(), cap);
        }
        if (!plan.startsWith(PLAN)) {
          throw new IOException("N at " + shards + " shards: unexpected output " + plan);
        }
        if (i >= warmup) {
          recorded.add(Long.parseLong(plan.substring(PLAN.length())));
        }
      }
      return new PlanningPoint("N", shards, loadMillis,
          Optional.of(Stats.of(recorded.stream().mapToLong(Long::longValue).toArray())), cap);
    }
  }

  /**
   * The child: {@code shards runs mode}, the mode {@value #PLAN_ONLY} or a
   * {@link NewShapes.Shape}. Prints "load MILLIS" once the connection is open, then
   * "plan NANOS" after each plan.
   */
  public static void main(String[] args) throws SQLException {
    final int shards = Integer.parseInt(args[0]);
    final int runs = Integer.parseInt(args[1]);
    final String mode = args[2];
    try (TinyShards tiny = TinyShards.create("union", shards)) {
      final Properties info = new Properties();
      info.setProperty("model", "inline:" + Models.unionAll(tiny.endpoints(), name -> name));
      final long start = System.nanoTime();
      try (Connection connection = DriverManager.getConnection("jdbc:calcite:", info)) {
        System.out.println(LOAD + (System.nanoTime() - start) / 1e6);
        for (int i = 0; i < runs; i++) {
          final long planStart = System.nanoTime();
          if (mode.equals(PLAN_ONLY)) {
            PlanningBench.prepareAndClose(connection, i);
          } else {
            NewShapes.prepareAndRun(connection,
                NewShapes.sql(NewShapes.Shape.valueOf(mode), "n", i, 1 + i));
          }
          System.out.println(PLAN + (System.nanoTime() - planStart));
        }
      }
    }
  }
}
