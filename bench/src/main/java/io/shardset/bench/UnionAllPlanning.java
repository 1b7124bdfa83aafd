package io.shardset.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * w8 for N, Calcite's JDBC adapter with UNION ALL views, whose planning time grows so fast
 * with the shard count that one run can take minutes. Each shard count is measured in a child
 * JVM that is killed when one step takes longer than the cap: a planner thread cannot be
 * stopped, and one left running would slow down every later measurement. The child's times
 * include its cold start (the first, unrecorded runs absorb most of it).
 */
public final class UnionAllPlanning {
  private static final String LOAD = "load ";
  private static final String PLAN = "plan ";

  private UnionAllPlanning() {
  }

  /**
   * Measures {@code warmup} unrecorded and {@code samples} recorded plans at {@code shards}
   * shards; a point with no planning times if any step took longer than {@code cap}.
   */
  public static PlanningPoint measure(int shards, int warmup, int samples, Duration cap)
      throws IOException, InterruptedException {
    final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-cp", System.getProperty("java.class.path"),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", UnionAllPlanning.class.getName(),
        Integer.toString(shards), Integer.toString(warmup + samples))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    final Thread reader = new Thread(() -> forward(child, lines), "union-all-planning-reader");
    reader.setDaemon(true);
    reader.start();
    try {
      final String load = lines.poll(cap.toMillis(), TimeUnit.MILLISECONDS);
      if (load == null || !load.startsWith(LOAD)) {
        throw new IOException("N at " + shards + " shards did not load its schema within "
            + cap.toSeconds() + " s: " + load);
      }
      final double loadMillis = Double.parseDouble(load.substring(LOAD.length()));
      final List<Long> recorded = new ArrayList<>();
      for (int i = 0; i < warmup + samples; i++) {
        final String plan = lines.poll(cap.toMillis(), TimeUnit.MILLISECONDS);
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
    } finally {
      child.destroyForcibly();
      child.waitFor();
    }
  }

  /** Passes the child's output lines on; a closed stream ends with the marker "eof". */
  private static void forward(Process child, BlockingQueue<String> lines) {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      lines.add("error " + e.getMessage());
    }
    lines.add("eof");
  }

  /**
   * The child: {@code shards runs}. Prints "load MILLIS" once the connection is open, then
   * "plan NANOS" after each plan.
   */
  public static void main(String[] args) throws SQLException {
    final int shards = Integer.parseInt(args[0]);
    final int runs = Integer.parseInt(args[1]);
    try (TinyShards tiny = TinyShards.create("union", shards)) {
      final Properties info = new Properties();
      info.setProperty("model", "inline:" + Models.unionAll(tiny.endpoints(), name -> name));
      final long start = System.nanoTime();
      try (Connection connection = DriverManager.getConnection("jdbc:calcite:", info)) {
        System.out.println(LOAD + (System.nanoTime() - start) / 1e6);
        for (int i = 0; i < runs; i++) {
          final long planStart = System.nanoTime();
          PlanningBench.prepareAndClose(connection, i);
          System.out.println(PLAN + (System.nanoTime() - planStart));
        }
      }
    }
  }
}
