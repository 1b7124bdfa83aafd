package io.shardset.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Runs the benchmark: loads the data set if needed, measures every workload on every system,
 * prints the results and writes them to {@code results.md}.
 *
 * <p>Arguments: {@code --quick} (100,000 orders and fewer rounds), {@code --orders N},
 * {@code --dir FOLDER} (default {@code bench/target}), {@code --publish} (also copy results.md
 * and the charts into {@code bench/results/}, which the README shows).
 */
public final class BenchMain {
  private BenchMain() {
  }

  public static void main(String[] args) throws Exception {
    boolean quick = false;
    Long orders = null;
    Path dir = Path.of("bench", "target");
    boolean publish = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> quick = true;
        case "--orders" -> orders = Long.parseLong(value(args, ++i, "--orders"));
        case "--dir" -> dir = Path.of(value(args, ++i, "--dir"));
        case "--publish" -> publish = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; expected --quick, --orders N, --dir FOLDER or --publish");
      }
    }
    final BenchData data = new BenchData(orders != null ? orders : quick ? 100_000 : 1_000_000);
    final int scale = quick ? 1 : 3;
    final Harness point = new Harness(3 * scale, 10 * scale, 200);
    final Harness scatter = new Harness(2, 5 * scale, 2);
    final Harness planning = new Harness(2, 5 * scale, 4);

    final Report report = new Report();
    if (quick) {
      report.setting("a quick run (--quick): fewer orders and rounds, to try the benchmark out;"
          + " its numbers are indicative only");
    }
    report.setting(String.format("data: %,d ORDERS, %,d customers, about %,d ORDER_LINES"
        + " (co-located on CUSTOMER_ID), %,d PRODUCTS (duplicated); %d embedded H2 file shards"
        + " and one unsharded H2 file", data.orders(), data.customers(), data.orders() * 2,
        BenchData.PRODUCTS, BenchDatabase.SHARDS));
    report.setting("systems: L one unsharded H2 database, plain JDBC; D plain JDBC to the shard"
        + " ShardSet's router names; N Calcite's JDBC adapter, a JdbcSchema per shard and"
        + " UNION ALL views; X ShardSet (jdbc:calcite: with its model); S ShardingSphere-JDBC"
        + " over the same shards, routing with ShardSet's hash by a CLASS_BASED algorithm");
    report.setting("statements are prepared once, outside the measured time; w8 prepares a"
        + " new point query text each time on tiny in-memory H2 shards");
    report.setting("rounds: point w1 " + describe(3 * scale, 10 * scale, 200)
        + "; w3, w4 " + describe(2, 5 * scale, 2) + "; w8 " + describe(2, 5 * scale, 4)
        + "; systems take turns within each round");
    report.setting("w8 X: 4, 16, 64, 256 and 1024 shards in this JVM, taking turns; w8 N: 4 and"
        + " 16 shards, each in a child JVM (" + (2 * scale + 1) + " plans after one unrecorded),"
        + " killed if one step takes over 30 s; w10 runs sqlline/sqlline -e \""
        + LauncherBench.QUERY + "\" on the demo model (" + (3 * scale + 2) + " runs after one"
        + " unrecorded run that builds and loads if needed), timed to the first result row");

    final BenchDatabase db = BenchDatabase.open(dir.resolve("bench-db"), data);
    try (BenchSystems systems = BenchSystems.open(db)) {
      final Workloads workloads = new Workloads(systems, data);
      run(report, "w1 point select", point, workloads.pointSelect());
      run(report, "w3 scatter aggregate", scatter, workloads.scatterAggregate());
      run(report, "w4 order by limit 100", scatter, workloads.orderByLimit());
    }
    try (PlanningBench plans = PlanningBench.open(List.of(4, 16, 64, 256, 1024))) {
      System.out.println("Running w8 plan point query on X at 4 to 1024 shards");
      report.addPlanning(plans.points(planning.measure("w8", plans.operations()).measured()));
    }
    for (int shards : List.of(4, 16)) {
      System.out.println("Running w8 plan point query on N at " + shards + " shards");
      report.addPlanning(List.of(UnionAllPlanning.measure(shards, 1, 2 * scale + 1,
          Duration.ofSeconds(30))));
    }

    System.out.println("Running w10 sqlline start to first row");
    report.addStartup("w10 sqlline start to first row",
        Stats.of(new LauncherBench(Path.of("").toAbsolutePath()).measure(3 * scale + 2)));

    System.out.println();
    Report.environment().forEach(System.out::println);
    System.out.println();
    System.out.print(report.table());
    Charts.write(report, dir);
    final Path out = dir.resolve("results.md");
    Files.writeString(out, report.markdown());
    System.out.println("\nWritten to " + out.toAbsolutePath());
    if (publish) {
      Publication.copy(dir, Publication.FOLDER);
      System.out.println("Published to " + Publication.FOLDER.toAbsolutePath());
    }
  }

  private static void run(Report report, String workload, Harness harness,
      Map<String, Operation> systems) throws Exception {
    System.out.println("Running " + workload + " on " + String.join(", ", systems.keySet()));
    final Harness.Outcome outcome = harness.measure(workload, systems);
    outcome.failures().forEach((system, reason) ->
        System.out.println("  " + system + " not measured: " + reason));
    report.add(workload, outcome.measured());
    report.failed(workload, outcome.failures());
  }

  private static String describe(int warmup, int rounds, int ops) {
    return warmup + " warm-up + " + rounds + " measured rounds of " + ops + " ops per system";
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
