package io.shardset.bench;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.tpch.TpchDataSet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the benchmark: loads the data set if needed, measures every workload on every system
 * and backend, prints the results and writes them to {@code results.md}.
 *
 * <p>Arguments: {@code --quick} (100,000 orders and fewer rounds), {@code --orders N},
 * {@code --dir FOLDER} (default {@code bench/target}), {@code --backend h2|postgres|both}
 * (default both; without a PostgreSQL server at 127.0.0.1:5432, H2 only), {@code --publish}
 * (also copy results.md and the charts into {@code bench/results/}, which docs/benchmarks.md
 * shows), {@code --writes-only} (only the write workloads w11 to w15 and w20, to try them quickly),
 * {@code --workloads w16,w17,w18,w19,w21,w22,w23,w24} (only those of the newer workloads named) and
 * {@code --tpch-scale F} (w18's TPC-H scale factor, default 0.01; 0.1 takes minutes more).
 */
public final class BenchMain {
  /** w13's batches per system in a round. */
  private static final int BATCHES_PER_ROUND = 10;

  private BenchMain() {
  }

  public static void main(String[] args) throws Exception {
    boolean quick = false;
    Long orders = null;
    Path dir = Path.of("bench", "target");
    boolean publish = false;
    boolean writesOnly = false;
    String backendArg = "both";
    WorkloadSelection selection = WorkloadSelection.all();
    double tpchScale = TpchDataSet.SCALE_FACTOR;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
      case "--quick" -> quick = true;
      case "--orders" -> orders = Long.parseLong(value(args, ++i, "--orders"));
      case "--dir" -> dir = Path.of(value(args, ++i, "--dir"));
      case "--backend" -> backendArg = value(args, ++i, "--backend");
      case "--publish" -> publish = true;
      case "--writes-only" -> writesOnly = true;
      case "--workloads" -> selection = WorkloadSelection.parse(value(args, ++i, "--workloads"));
      case "--tpch-scale" -> tpchScale = Double.parseDouble(value(args, ++i, "--tpch-scale"));
      default -> throw new IllegalArgumentException("unknown argument " + args[i]
          + "; expected --quick, --orders N, --dir FOLDER, --backend h2|postgres|both"
          + ", --publish, --writes-only, --workloads w16,w17,w18,w19,w21,w22,w23,w24 or --tpch-scale F");
      }
    }
    if ((writesOnly || !selection.everything()) && publish) {
      throw new IllegalArgumentException("--publish publishes a whole run; not with"
          + " --writes-only or --workloads");
    }
    if (writesOnly && !selection.everything()) {
      throw new IllegalArgumentException("--writes-only and --workloads exclude each other");
    }
    final boolean everything = selection.everything();
    final List<String> backends = backends(backendArg);
    final BenchData data = new BenchData(orders != null ? orders : quick ? 100_000 : 1_000_000);
    final int scale = quick ? 1 : 3;
    // Budgets keep a full run on two cores to a reasonable time; see Harness.
    final Duration budget = Duration.ofSeconds(quick ? 20 : 60);
    final Duration skipAbove = Duration.ofSeconds(30);
    final Harness point = new Harness(3 * scale, 10 * scale, 200).limited(budget, skipAbove);
    final Harness scatter = new Harness(2, 5 * scale, 2).limited(budget, skipAbove);
    final Harness batches = new Harness(2, 5 * scale, BATCHES_PER_ROUND)
        .limited(budget, skipAbove);
    final Harness planning = new Harness(2, 5 * scale, 4);

    final Report report = new Report();
    if (quick) {
      report.setting("a quick run (--quick): fewer orders and rounds, to try the benchmark out;"
          + " its numbers are indicative only");
    }
    if (writesOnly) {
      report.setting("only the write workloads (--writes-only): w11 to w15 and w20");
    }
    if (!everything) {
      report.setting("only the workloads " + String.join(", ", selection.only().stream()
          .sorted().toList()) + " (--workloads)");
    }
    report.setting(String.format(Locale.ROOT,
        "data: %,d ORDERS, %,d customers, about %,d ORDER_LINES"
        + " (co-located on CUSTOMER_ID), %,d PRODUCTS (duplicated); %d shards and one unsharded"
        + " database per backend: embedded H2 files, and PostgreSQL databases on this machine",
        data.orders(), data.customers(), data.orders() * 2, BenchData.PRODUCTS,
        BenchDatabase.SHARDS));
    report.setting("backends: " + String.join(", ", backends));
    report.setting("systems: L one unsharded database, plain JDBC; D plain JDBC to the shard"
        + " ShardSet's router names; N Calcite's JDBC adapter, a JdbcSchema per shard and"
        + " UNION ALL views; X ShardSet (jdbc:shardset: with its model); S ShardingSphere-JDBC"
        + " over the same shards, routing with ShardSet's hash by a CLASS_BASED algorithm");
    report.setting("statements are prepared once, outside the measured time, except w9 (a"
        + " plain Statement with a literal key) and w8 (prepares a new point query text each"
        + " time, jdbc:calcite: without the plan cache, on tiny in-memory H2 shards)");
    report.setting("rounds: w1, w2, w9, w11, w12, w14, w20 " + describe(3 * scale, 10 * scale, 200)
        + "; w3, w4, w6, w7 " + describe(2, 5 * scale, 2) + "; w13 "
        + describe(2, 5 * scale, BATCHES_PER_ROUND) + "; w8 " + describe(2, 5 * scale, 4)
        + "; systems take turns within each round; no round starts after " + budget.toSeconds()
        + " s of measuring once " + Harness.MIN_ROUNDS + " are done, and a system whose first"
        + " run takes over " + skipAbove.toSeconds() + " s is skipped");
    report.setting("writes (w11 to w15, w20) go to " + WriteTable.NAME + ", a copy of ORDERS'"
        + " columns sharded the same way, created anew on every shard each run and emptied after"
        + " each write workload; every connection in auto-commit mode but in w20 (an INSERT,"
        + " the read of its row and a commit per operation); each INSERT has new keys;"
        + " the checksum is the number of rows written (and read, in w20). D writes straight"
        + " to the shard ShardSet's router names; w13 D sends each shard its rows as one batch, the shards"
        + " one after the other; w14 X commits the four shards as one transaction of its"
        + " coordinator, S in its default LOCAL transaction mode (each shard on its own, not"
        + " atomic), D one row at a time (four local commits)");
    report.setting("a system that throws or answers differently from the first system is not"
        + " measured, and its row says why");
    report.setting("w5 streams every ORDERS row once per system in a child JVM with "
        + StreamingWorkload.MAX_HEAP + "; peak heap is the sum of the heap pools' peaks"
        + " (an upper bound) over two scans, and the rate is the second scan's; L, D and S read"
        + " with auto-commit off and fetch size 1000");
    report.setting("w8 X: 4, 16, 64, 256 and 1024 shards in this JVM, taking turns; w8 N: 4 and"
        + " 16 shards, each in a child JVM (" + (2 * scale + 1) + " plans after one unrecorded),"
        + " killed if one step takes over 30 s; w10 runs sqlline/sqlline -e \""
        + LauncherBench.QUERY + "\" on the demo model (" + (3 * scale + 2) + " runs after one"
        + " unrecorded run that builds and loads if needed), timed to the first result row");

    report.setting("w16 to w19: w16 prepares and runs a statement of a new shape every time"
        + " through jdbc:shardset: over tiny in-memory H2 shards (X at 4 and 1024 shards in"
        + " this JVM, N at 4 in a child JVM), after " + NewShapesBench.WARM_UP_SHAPES
        + " unmeasured new shapes of each kind per X connection, " + (quick
        ? "1 warm-up + 3 rounds of 3" : "2 warm-up + 5 rounds of 10") + " per system; w17"
        + " runs " + ConcurrentClients.JIT_WARM_UP_QUERIES + " unrecorded queries per system on"
        + " one client first, then 1, 8 and 32 client threads"
        + " for " + (quick ? 3 : 10) + " s each on PostgreSQL; w18 runs the 22 TPC-H queries"
        + " on L, S, X and N, each system in a child JVM, a step stopped after "
        + (quick ? 15 : 60) + " s and a system after " + (quick ? 90 : 600) + " s; w19 opens "
        + (quick ? 5 : 15) + " connections after a first one at each shard count, with"
        + " checkShards atOpen and onFirstUse");
    final Path dbFolder = dir.resolve("bench-db");
    final String tpchBackend = backends.contains("postgres") ? "postgres" : backends.get(0);
    for (String backend : backends) {
      if (!everything) {
        newBackendWorkloads(report, selection, backend, tpchBackend, dbFolder, data, quick,
            tpchScale);
        continue;
      }
      final BenchDatabase db = BenchDatabase.open(backend, dbFolder, data);
      final String on = " (" + db.backend() + ")";
      // w5 runs first: its JVMs open the databases themselves, and an embedded H2 file admits
      // one process at a time. Calcite's JDBC adapter (N) keeps its connections in pools it
      // never closes, so w5 must run before this process opens N; ShardSet's pools, opened by
      // the load, can be closed (with the rest of the process's runtime, which the next
      // connection creates again).
      ShardSetRuntime.get().close();
      final String w5 = "w5 full scan, streamed" + on;
      final List<String> streamers = List.of("L", "D", "N", "X", "S");
      Map<String, Outcome> streamed = Map.of();
      if (!writesOnly) {
        System.out.println("Running " + w5 + " on " + String.join(", ", streamers));
        streamed = new StreamingWorkload(backend, dbFolder, data, Duration.ofMinutes(10))
            .measure(streamers);
      }
      try (BenchSystems systems = BenchSystems.open(db)) {
        if (!writesOnly) {
          final Workloads workloads = new Workloads(systems, data);
          run(report, "w1 point select" + on, point, workloads.pointSelect());
          run(report, "w2 IN-list of 10 keys" + on, point, workloads.inList());
          run(report, "w3 scatter aggregate" + on, scatter, workloads.scatterAggregate());
          run(report, "w4 order by limit 100" + on, scatter, workloads.orderByLimit());
          report.add(w5, streamed);
          run(report, "w6 join duplicated table" + on, scatter, workloads.productJoin());
          run(report, "w7 co-located join" + on, scatter, workloads.colocatedJoin());
          run(report, "w9 literal point select" + on, point, workloads.literalPoint());
        }
        final WriteWorkloads writes = new WriteWorkloads(systems, data);
        final String w11 = "w11 insert one row" + on;
        report.addTarget(WriteTarget.check(w11,
            runWrite(report, w11, point, writes::singleInsert, writes)));
        final String w12 = "w12 update one row by key" + on;
        report.addTarget(WriteTarget.check(w12,
            runWrite(report, w12, point, writes::updateByKey, writes)));
        runWrite(report, "w13 batch of " + WriteWorkloads.BATCH_ROWS + " inserts" + on,
            batches, writes::batchInsert, writes);
        runWrite(report, "w14 insert on 4 shards" + on, point, writes::fourShardInsert, writes);
        runWrite(report, "w20 insert and read back in a transaction" + on, point,
            writes::insertThenReadInTransaction, writes);
        runWrite(report, "w15 bulk load of " + WriteWorkloads.LOAD_ROWS + " rows" + on,
            new Harness(1, 3 * scale, 1), writes::bulkLoad, writes);
      }
      if (!writesOnly) {
        newBackendWorkloads(report, selection, backend, tpchBackend, dbFolder, data, quick,
            tpchScale);
      }
    }
    if (!writesOnly && everything) {
      planningAndStartup(report, planning, scale);
    }
    if (!writesOnly && (selection.runs("w16") || selection.runs("w19"))) {
      shapesAndOpening(report, selection, quick);
    }
    if (!writesOnly && selection.runs("w22")) {
      distribution(report, dir, scale);
    }
    if (!writesOnly && selection.runs("w23")) {
      System.out.println("Running w23 a switch in the catalog until three servers run it");
      try (CatalogSwitchBench bench = CatalogSwitchBench.start(dir.resolve("w23"))) {
        report.addStartup("w23 catalog switch until 3 servers run it",
            Stats.of(bench.switches(20)));
      }
    }

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

  /** w8 (planning by shard count) and w10 (sqlline start to first row). */
  private static void planningAndStartup(Report report, Harness planning, int scale)
      throws Exception {
    try (PlanningBench plans = PlanningBench.open(List.of(4, 16, 64, 256, 1024))) {
      System.out.println("Running w8 plan point query on X at 4 to 1024 shards");
      report.addPlanning(plans.points(planning.measure("w8", plans.operations())));
    }
    for (int shards : List.of(4, 16)) {
      System.out.println("Running w8 plan point query on N at " + shards + " shards");
      report.addPlanning(List.of(UnionAllPlanning.measure(shards, 1, 2 * scale + 1,
          Duration.ofSeconds(30))));
    }

    System.out.println("Running w10 sqlline start to first row");
    report.addStartup("w10 sqlline start to first row",
        Stats.of(new LauncherBench(Path.of("").toAbsolutePath()).measure(3 * scale + 2)));
  }

  /** w22: the release files' sizes and the unpacked distribution's start-up times. */
  private static void distribution(Report report, Path dir, int scale) throws Exception {
    System.out.println("Running w22 the server distribution: sizes, --version, server start"
        + " to first answer");
    final DistributionBench bench = DistributionBench.unpack(Path.of("").toAbsolutePath(),
        dir.resolve("distribution"));
    report.addTable(bench.sizes());
    report.addStartup("w22 bin/shardset --version", Stats.of(bench.version(5 * scale)));
    report.addStartup("w22 bin/shardset-server start to first answer",
        Stats.of(bench.serverToFirstAnswer(5 * scale)));
  }

  /**
   * The newer workloads that run on a backend: w17 (many clients, on PostgreSQL only) and w18
   * (TPC-H, on {@code tpchBackend} only: its targets are PostgreSQL's, and on H2, whose shards
   * share this machine's two cores with the planner, it would add many minutes).
   */
  private static void newBackendWorkloads(Report report, WorkloadSelection selection,
      String backend, String tpchBackend, Path dbFolder, BenchData data, boolean quick,
      double tpchScale) throws Exception {
    if (backend.equals("postgres") && selection.runs("w17")) {
      final BenchDatabase db = BenchDatabase.open(backend, dbFolder, data);
      final Duration window = Duration.ofSeconds(quick ? 3 : 10);
      System.out.println("Running w17 concurrent clients (" + db.backend() + ") on D, X, S");
      final ConcurrentClients clients =
          new ConcurrentClients(db, Duration.ofSeconds(quick ? 1 : 3), window);
      final List<ConcurrentClients.Point> points = clients.measure();
      report.addTable(ConcurrentClients.table(db.backend(), points, window));
      report.addConcurrency(points);
      report.addTarget(ConcurrentClients.target(db.backend(), points));
      final int rounds = quick ? 10 : 20;
      final int perRound = quick ? 2_000 : 5_000;
      System.out.println("Running w17 client CPU per query (" + db.backend() + ") on D and X, "
          + rounds + " rounds of " + perRound);
      final List<PointQueryCpu.Point> cpu = clients.cpuPerQuery(rounds, perRound);
      report.addTable(PointQueryCpu.table(db.backend(), cpu, rounds, perRound));
      PointQueryCpu.targets(db.backend(), cpu).forEach(report::addTarget);
    }
    if (backend.equals("postgres") && selection.runs("w21")) {
      final BenchDatabase db = BenchDatabase.open(backend, dbFolder, data);
      final Duration window = Duration.ofSeconds(quick ? 10 : 30);
      System.out.println("Running w21 " + RemoteClients.CLIENTS + " clients, light mix ("
          + db.backend() + ") on X and through the server");
      report.addTable(RemoteClients.table(db.backend(), new RemoteClients(db,
          Duration.ofSeconds(quick ? 5 : 10), window).measure(dbFolder), window));
    }
    if (backend.equals("postgres") && selection.runs("w24")) {
      final BenchDatabase db = BenchDatabase.open(backend, dbFolder, data);
      final Duration window = Duration.ofSeconds(quick ? 5 : 15);
      System.out.println("Running w24 the w1 point query through the PostgreSQL port ("
          + db.backend() + ") on X, XR, XP and pgbench");
      report.addTable(PgPortClients.table(db.backend(), new PgPortClients(db,
          Duration.ofSeconds(quick ? 3 : 5), window).measure(dbFolder), window));
    }
    if (selection.runs("w18") && backend.equals(tpchBackend)) {
      final TpchDatabase tpch = new TpchDatabase(backend, tpchScale, dbFolder);
      tpch.ensureLoaded();
      // The children open the databases themselves; H2's files admit one process at a time.
      ShardSetRuntime.get().close();
      final Duration cap = Duration.ofSeconds(quick ? 15 : 60);
      final String name = "w18 TPC-H at scale factor " + tpchScale + " (" + tpch.backendName()
          + ")";
      System.out.println("Running " + name + " on L, S, X, N");
      // A system that cannot answer the 22 queries in this time has missed its target by far.
      final Duration budget = Duration.ofSeconds(quick ? 90 : 600);
      final Map<String, List<TpchWorkload.QueryResult>> results = new TpchWorkload(tpch,
          TpchWorkload.RUNS, cap, budget)
          .measure(List.of("L", "S", "X", "N"));
      report.addTable(TpchWorkload.table(name, results));
      report.addTable(TpchWorkload.failures(name + ": queries not answered", results));
      TpchWorkload.targets(name, tpchScale, results).forEach(report::addTarget);
    }
  }

  /** w16 (new statement shapes) and w19 (opening a connection) at 4 and 1024 shards. */
  private static void shapesAndOpening(Report report, WorkloadSelection selection,
      boolean quick) throws Exception {
    final int scale = quick ? 1 : 3;
    final List<TinyShards> tiny = new ArrayList<>();
    try {
      for (int count : List.of(4, 1024)) {
        tiny.add(TinyShards.create("shapes", count));
      }
      if (selection.runs("w16")) {
        // A shape whose first run takes seconds has missed its target by far; skipping it
        // keeps the run short (see the note of the report's row).
        NewShapesBench.run(report, tiny, quick
            ? new Harness(1, 3, 3).limited(Duration.ofSeconds(15), Duration.ofSeconds(5))
            : new Harness(2, 5, 10).limited(Duration.ofSeconds(45), Duration.ofSeconds(15)),
            scale);
      }
      if (selection.runs("w19")) {
        final List<ConnectionOpening.Times> times = new ArrayList<>();
        for (TinyShards shards : tiny) {
          System.out.println("Running w19 open a connection at " + shards.urls().size()
              + " shards");
          times.addAll(ConnectionOpening.measure(shards, quick ? 5 : 15));
        }
        report.addTable(ConnectionOpening.table(times));
        ConnectionOpening.targets(times).forEach(report::addTarget);
      }
    } finally {
      for (TinyShards shards : tiny) {
        shards.close();
      }
    }
  }

  /** The backends to run: both unless told otherwise, and PostgreSQL only if it answers. */
  static List<String> backends(String arg) {
    final List<String> named = switch (arg) {
    case "h2" -> List.of("h2");
    case "postgres" -> List.of("postgres");
    case "both" -> List.of("h2", "postgres");
    default -> throw new IllegalArgumentException("unknown backend " + arg
        + "; expected h2, postgres or both");
    };
    final List<String> backends = new ArrayList<>(named);
    if (backends.contains("postgres") && !PostgresBenchDatabase.reachable()) {
      System.out.println("*** PostgreSQL at 127.0.0.1:5432 does not answer:"
          + " running on H2 only ***");
      backends.remove("postgres");
      if (backends.isEmpty()) {
        backends.add("h2");
      }
    }
    return backends;
  }

  private static Map<String, Outcome> run(Report report, String workload, Harness harness,
      Map<String, Operation> systems) throws Exception {
    System.out.println("Running " + workload + " on " + String.join(", ", systems.keySet()));
    final Map<String, Outcome> outcomes = harness.measure(workload, systems);
    outcomes.forEach((system, outcome) -> {
      if (outcome.note() != null) {
        System.out.println("  " + system + " not measured: " + outcome.note());
      }
    });
    report.add(workload, outcomes);
    return outcomes;
  }

  /**
   * Runs a write workload and empties the write table after it, whatever happened; a table
   * that cannot be emptied is reported and the run goes on (later workloads write new keys).
   */
  private static Map<String, Outcome> runWrite(Report report, String workload, Harness harness,
      WriteSetup setup, WriteWorkloads writes) throws Exception {
    try {
      return run(report, workload, harness, setup.operations());
    } finally {
      try {
        writes.clear();
      } catch (SQLException e) {
        System.out.println("*** after " + workload + ": " + e.getMessage() + " ***");
      }
    }
  }

  /** Prepares a write workload's operations. */
  @FunctionalInterface
  private interface WriteSetup {
    Map<String, Operation> operations() throws SQLException;
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
