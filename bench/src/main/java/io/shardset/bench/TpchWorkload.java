package io.shardset.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * w18: the 22 TPC-H queries in their published texts on L (one database holding everything),
 * N, S and X, each system in a child JVM ({@link TpchProbe}, run by {@link ChildJvm}): per
 * query the time to prepare it (plan) and the median time to execute it and read every row
 * (run). A step that takes longer than the cap is reported as such and its child killed; the
 * next query runs in a new child. A system may also have a budget, after which its remaining
 * queries are not run.
 */
public final class TpchWorkload {
  /** The target: X's run total, its plans cached, at most this many times L's at scale
   * factors up to {@link #SMALL_SCALE}. */
  public static final double MAX_RUN_OVER_L_SMALL = 3;
  /** The target: X's run total at most this many times L's at larger scale factors. */
  public static final double MAX_RUN_OVER_L = 1.5;
  /** The scale factor up to which {@link #MAX_RUN_OVER_L_SMALL} applies. */
  static final double SMALL_SCALE = 0.01;
  /** The target: X plans the 22 queries again, its JIT warm, in at most this many ms. */
  public static final double MAX_REPLAN_TOTAL_MILLIS = 1_000;
  /**
   * Executions per query, quick or not: the run time is their median. One execution is each
   * query's first, its generated code not yet compiled by the JIT, which a warm plan cache
   * does not mean.
   */
  public static final int RUNS = 3;
  /** The target: no query of X planned in more than this, in ms. */
  public static final double MAX_PLAN_MILLIS = 1_000;

  /**
   * The longest a child may take to start and connect: a JVM that loads ShardingSphere or
   * Calcite takes seconds on a busy machine, which is not a query's time.
   */
  private static final Duration START_CAP = Duration.ofSeconds(120);

  /**
   * One query on one system.
   *
   * @param replanMillis X's second plan of the query, with its plan cache emptied, or null
   */
  public record QueryResult(int query, Double planMillis, Stats run, long rows, String note,
      Double replanMillis, Integer secondConnectionPlans) {
    /** A result without a second plan. */
    public QueryResult(int query, Double planMillis, Stats run, long rows, String note) {
      this(query, planMillis, run, rows, note, null, null);
    }

    /** A result without a second connection's count. */
    public QueryResult(int query, Double planMillis, Stats run, long rows, String note,
        Double replanMillis) {
      this(query, planMillis, run, rows, note, replanMillis, null);
    }

    /** Whether it was planned and run to the end. */
    public boolean answered() {
      return note == null && planMillis != null && run != null;
    }
  }

  private final TpchDatabase db;
  private final int runs;
  private final Duration cap;
  private final Duration budget;

  /**
   * The workload over {@code db}.
   *
   * @param runs executions per query (the run time is their median)
   * @param cap the longest one step (a plan, an execution) may take
   * @param budget the longest a system may take in all, or null for no limit
   */
  public TpchWorkload(TpchDatabase db, int runs, Duration cap, Duration budget) {
    this.db = Objects.requireNonNull(db, "db");
    this.runs = runs;
    this.cap = Objects.requireNonNull(cap, "cap");
    this.budget = budget;
  }

  /** Every query on every system, in the systems' order. */
  public Map<String, List<QueryResult>> measure(List<String> systems)
      throws IOException, InterruptedException {
    final Map<String, List<QueryResult>> result = new LinkedHashMap<>();
    for (String system : systems) {
      System.out.println("  w18 TPC-H on " + system + " (" + db.backendName() + ")");
      result.put(system, measure(system));
    }
    return result;
  }

  /** A query's partial result while its child reports it. */
  private static final class Progress {
    Long planNanos;
    final List<Long> replanNanos = new ArrayList<>();
    Integer secondConnectionPlans;
    final List<Long> runNanos = new ArrayList<>();
    long rows = -1;
    String note;
  }

  private List<QueryResult> measure(String system) throws IOException, InterruptedException {
    final Map<Integer, Progress> progress = new TreeMap<>();
    for (int q = 1; q <= TpchProbe.QUERIES; q++) {
      progress.put(q, new Progress());
    }
    final long start = System.nanoTime();
    int next = 1;
    while (next <= TpchProbe.QUERIES) {
      if (budget != null && System.nanoTime() - start > budget.toNanos()) {
        for (int q = next; q <= TpchProbe.QUERIES; q++) {
          progress.get(q).note = "not run: " + system + " spent its budget of "
              + budget.toSeconds() + " s";
        }
        break;
      }
      next = child(system, next, progress);
    }
    final List<QueryResult> results = new ArrayList<>();
    progress.forEach((q, p) -> results.add(new QueryResult(q,
        p.planNanos == null ? null : p.planNanos / 1e6,
        p.runNanos.size() == runs
            ? Stats.of(p.runNanos.stream().mapToLong(Long::longValue).toArray()) : null,
        p.rows, p.note, p.replanNanos.isEmpty() ? null
            : Stats.of(p.replanNanos.stream().mapToLong(Long::longValue).toArray())
                .medianMillis(), p.secondConnectionPlans)));
    return results;
  }

  /** Runs a child from query {@code first} on; returns the query the next child starts at. */
  private int child(String system, int first, Map<Integer, Progress> progress)
      throws IOException, InterruptedException {
    try (ChildJvm child = ChildJvm.start(TpchProbe.class, List.of(system, db.backend(),
        Double.toString(db.scaleFactor()), db.h2Folder().toString(), Integer.toString(first),
        Integer.toString(runs)))) {
      final String ready = child.poll(START_CAP);
      if (!TpchProbe.READY.equals(ready)) {
        for (int q = first; q <= TpchProbe.QUERIES; q++) {
          progress.get(q).note = ready == null
              ? "failed: no connection within " + START_CAP.toSeconds() + " s"
              : "failed: " + ready;
        }
        return TpchProbe.QUERIES + 1;
      }
      int current = first;
      while (current <= TpchProbe.QUERIES) {
        final String line = child.poll(cap);
        final Progress p = progress.get(current);
        if (line == null) {
          p.note = (p.planNanos == null ? "planning" : "running") + " over "
              + cap.toSeconds() + " s";
          return current + 1;
        }
        if (line.equals(ChildJvm.EOF)) {
          p.note = "failed: the child JVM ended";
          return current + 1;
        }
        final String[] parts = line.split(" ", 3);
        if (parts.length < 3) {
          continue; // not the probe's (a library printing to standard output)
        }
        final Progress of = progress.get(Integer.parseInt(parts[1]));
        switch (parts[0]) {
        case TpchProbe.PLAN -> of.planNanos = Long.parseLong(parts[2]);
        case TpchProbe.RUN -> {
          final String[] value = parts[2].split(" ");
          of.runNanos.add(Long.parseLong(value[0]));
          of.rows = Long.parseLong(value[1]);
        }
        case TpchProbe.ERROR -> of.note = "failed: " + parts[2];
        default -> {
          continue;
        }
        }
        while (current <= TpchProbe.QUERIES && (progress.get(current).note != null
            || progress.get(current).runNanos.size() == runs)) {
          current++;
        }
      }
      if (system.equals("X")) {
        readReplans(child, progress);
      }
      return current;
    }
  }

  /** Reads X's second plans ({@link TpchProbe#REPLAN}) up to {@link TpchProbe#DONE}. */
  private void readReplans(ChildJvm child, Map<Integer, Progress> progress)
      throws InterruptedException {
    for (String line = child.poll(cap); line != null && !line.equals(ChildJvm.EOF)
        && !line.equals(TpchProbe.DONE); line = child.poll(cap)) {
      final String[] parts = line.split(" ");
      if (parts.length == 3 && parts[0].equals(TpchProbe.REPLAN)) {
        progress.get(Integer.parseInt(parts[1])).replanNanos.add(Long.parseLong(parts[2]));
      } else if (parts.length == 3 && parts[0].equals(TpchProbe.SECOND)) {
        progress.get(Integer.parseInt(parts[1])).secondConnectionPlans =
            Integer.parseInt(parts[2]);
      }
    }
  }

  /** The report's table: plan and run ms per query and system, and the totals. */
  public static ResultTable table(String title, Map<String, List<QueryResult>> bySystem) {
    final List<String> columns = new ArrayList<>(List.of("query"));
    bySystem.forEach((s, results) -> {
      columns.add(s + " plan ms");
      columns.add(s + " run ms");
      if (replanned(results)) {
        columns.add(s + " plan again ms");
      }
    });
    final List<QueryResult> reference = bySystem.get("L");
    final List<List<String>> rows = new ArrayList<>();
    for (int q = 1; q <= TpchProbe.QUERIES; q++) {
      final List<String> row = new ArrayList<>(List.of(String.format(Locale.ROOT, "Q%02d", q)));
      for (List<QueryResult> results : bySystem.values()) {
        final QueryResult r = results.get(q - 1);
        row.add(r.planMillis() == null ? shortNote(r.note()) : Report.millis(r.planMillis()));
        row.add(r.run() == null ? (r.planMillis() == null ? "" : shortNote(r.note()))
            : Report.millis(r.run().medianMillis()) + rowsDiffer(r, reference));
        if (replanned(results)) {
          row.add(r.replanMillis() == null ? "" : Report.millis(r.replanMillis()));
        }
      }
      rows.add(row);
    }
    final List<String> total = new ArrayList<>(List.of("total"));
    bySystem.values().forEach(results -> {
      total.add(Report.millis(results.stream().filter(QueryResult::answered)
          .mapToDouble(QueryResult::planMillis).sum()));
      total.add(Report.millis(results.stream().filter(QueryResult::answered)
          .mapToDouble(r -> r.run().medianMillis()).sum()) + " ("
          + results.stream().filter(QueryResult::answered).count() + " of 22)");
      if (replanned(results)) {
        total.add(Report.millis(results.stream().filter(QueryResult::answered)
            .mapToDouble(r -> r.replanMillis() == null ? 0 : r.replanMillis()).sum()));
      }
    });
    rows.add(total);
    return new ResultTable(title, "Plan is the time to prepare the published text once"
        + " (after a first statement that loads the classes); run the median of executing it"
        + " " + RUNS + " times and reading every value of every row; each system in a JVM of its own. A cell"
        + " marked * returned another number of rows than L. The totals add up the queries"
        + " each system answered. Why a query was not answered follows the table. \"Plan"
        + " again\" is the median of X planning the same text " + TpchProbe.REPLAN_PASSES
        + " times more after all 22, its plan cache emptied before each: a JVM whose JIT has"
        + " compiled the planner, as in a server that has run a while (Calcite reuses the"
        + " compiled classes of a query whose generated code has no static field, such as a"
        + " decimal constant; the others are compiled again).",
        columns, rows);
  }

  private static boolean replanned(List<QueryResult> results) {
    return results.stream().anyMatch(r -> r.replanMillis() != null);
  }

  /** The failures and time-outs, one row each. */
  public static ResultTable failures(String title, Map<String, List<QueryResult>> bySystem) {
    final List<List<String>> rows = new ArrayList<>();
    bySystem.forEach((system, results) -> results.stream().filter(r -> r.note() != null)
        .forEach(r -> rows.add(List.of(system, String.format(Locale.ROOT, "Q%02d", r.query()),
            r.note()))));
    return new ResultTable(title, "", List.of("system", "query", "why not answered"), rows);
  }

  private static String shortNote(String note) {
    if (note == null) {
      return "";
    }
    return note.startsWith("failed") ? "error" : note.startsWith("not run") ? "not run" : note;
  }

  private static String rowsDiffer(QueryResult r, List<QueryResult> reference) {
    if (reference == null) {
      return "";
    }
    final QueryResult l = reference.get(r.query() - 1);
    return l.answered() && l.rows() != r.rows() ? " * (" + r.rows() + " rows)" : "";
  }

  /** The two target lines: X's total against L's, and X's slowest plan. */
  public static List<String> targets(String what, double scaleFactor,
      Map<String, List<QueryResult>> bySystem) {
    final List<QueryResult> x = bySystem.get("X");
    final List<QueryResult> l = bySystem.get("L");
    final List<String> lines = new ArrayList<>();
    final String runWhat = what + ": X's run total, plans cached, / L's";
    if (x == null || l == null) {
      lines.add(TargetCheck.unchecked(runWhat, "X or L did not run"));
      return lines;
    }
    final long xAnswered = x.stream().filter(QueryResult::answered).count();
    final long lAnswered = l.stream().filter(QueryResult::answered).count();
    final boolean all = xAnswered == TpchProbe.QUERIES && lAnswered == TpchProbe.QUERIES;
    if (!all) {
      lines.add(runWhat + ": missed, X answered " + xAnswered + " and L " + lAnswered
          + " of 22");
    } else {
      final double xRun = runTotal(x);
      final double lRun = runTotal(l);
      lines.add(TargetCheck.atMost(String.format(Locale.ROOT, "%s = %.2f / %.2f s", runWhat,
          xRun / 1e3, lRun / 1e3), xRun / lRun,
          scaleFactor <= SMALL_SCALE ? MAX_RUN_OVER_L_SMALL : MAX_RUN_OVER_L, "x"));
      lines.add(String.format(Locale.ROOT, "%s: X's total with its first plans (plan + run) /"
          + " L's = %.2f / %.2f s: %.1f x (issue 18's measure)", what, total(x) / 1e3,
          total(l) / 1e3, total(x) / total(l)));
    }
    if (all && x.stream().allMatch(r -> r.replanMillis() != null)) {
      lines.add(TargetCheck.atMost(what + ": X's plans of the 22 again (plan cache emptied,"
          + " JIT warm)", x.stream().mapToDouble(QueryResult::replanMillis).sum(),
          MAX_REPLAN_TOTAL_MILLIS, "ms"));
    }
    final String planWhat = what + ": X's slowest plan";
    final QueryResult unplanned = x.stream().filter(r -> r.planMillis() == null).findFirst()
        .orElse(null);
    if (unplanned != null) {
      lines.add(String.format(Locale.ROOT, "%s: Q%02d not planned (%s) (at most %s ms): missed",
          planWhat, unplanned.query(), unplanned.note(),
          TargetCheck.number(MAX_PLAN_MILLIS)));
    } else {
      final QueryResult slowest = x.stream()
          .max((a, b) -> Double.compare(a.planMillis(), b.planMillis())).orElseThrow();
      lines.add(TargetCheck.atMost(String.format(Locale.ROOT, "%s, Q%02d", planWhat,
          slowest.query()), slowest.planMillis(), MAX_PLAN_MILLIS, "ms"));
    }
    final List<Integer> second = x.stream().map(QueryResult::secondConnectionPlans)
        .filter(Objects::nonNull).toList();
    if (!second.isEmpty()) {
      final int plans = second.stream().mapToInt(Integer::intValue).sum();
      lines.add(String.format(Locale.ROOT, "%s: plans made by a second connection's first"
          + " execution of the %d texts X planned: %d (none): %s", what, second.size(), plans,
          plans == 0 ? "met" : "missed"));
    }
    return lines;
  }

  /** The median run of every answered query, in ms. */
  static double runTotal(List<QueryResult> results) {
    return results.stream().filter(QueryResult::answered)
        .mapToDouble(r -> r.run().medianMillis()).sum();
  }

  /** Plan and median run of every query, in ms. */
  static double total(List<QueryResult> results) {
    return results.stream().filter(QueryResult::answered)
        .mapToDouble(r -> r.planMillis() + r.run().medianMillis()).sum();
  }
}
