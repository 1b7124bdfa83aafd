package io.shardset.bench;

import io.shardset.calcite.ShardSchemaFactory;
import io.shardset.util.SuppressForbidden;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** The results of one run: a row per system and workload, with the machine and versions. */
public final class Report {
  /** One system in one workload: its latencies, or a note in their place. */
  public record Row(String workload, String system, Outcome outcome) {
    public Row {
      Objects.requireNonNull(workload, "workload");
      Objects.requireNonNull(system, "system");
      Objects.requireNonNull(outcome, "outcome");
    }

    /** The median, p99 and rate columns, or the outcome's note in their place. */
    List<String> cells() {
      final Stats stats = outcome.stats();
      return stats == null ? List.of(outcome.note())
          : List.of(millis(stats.medianMillis()), millis(stats.p99Millis()),
              rate(stats.opsPerSecond()));
    }
  }

  /** A chart written next to results.md. */
  public record Chart(String title, String fileName) {
    public Chart {
      Objects.requireNonNull(title, "title");
      Objects.requireNonNull(fileName, "fileName");
    }
  }

  private final List<Row> rows = new ArrayList<>();
  private final List<PlanningPoint> planning = new ArrayList<>();
  private final Map<String, Stats> startups = new LinkedHashMap<>();
  private final List<Chart> charts = new ArrayList<>();
  private final List<String> settings = new ArrayList<>();
  private final List<String> targets = new ArrayList<>();
  private final List<ResultTable> tables = new ArrayList<>();
  private final List<ConcurrentClients.Point> concurrency = new ArrayList<>();

  /** Adds a workload's results, in the systems' order. */
  public void add(String workload, Map<String, Outcome> bySystem) {
    bySystem.forEach((system, outcome) -> rows.add(new Row(workload, system, outcome)));
  }

  /** Adds a line describing how the run was made (data size, rounds). */
  public void setting(String line) {
    settings.add(Objects.requireNonNull(line, "line"));
  }

  /** Adds planning times at one or more shard counts (w8). */
  public void addPlanning(List<PlanningPoint> points) {
    planning.addAll(points);
  }

  /**
   * Adds a measured wall time that is not a rate, such as w10's start to first result; it has
   * its own table and no place in the throughput chart.
   */
  public void addStartup(String name, Stats stats) {
    startups.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(stats, "stats"));
  }

  /**
   * Adds a line saying whether a workload met its target, such as {@link WriteTarget}'s; the
   * lines follow the results under "against the targets".
   */
  public void addTarget(String line) {
    targets.add(Objects.requireNonNull(line, "line"));
  }

  /**
   * Adds a table of its own, for results that are not one row per system (w17's clients,
   * w18's queries, w19's connection times); tables follow the main results in order.
   */
  public void addTable(ResultTable table) {
    tables.add(Objects.requireNonNull(table, "table"));
  }

  public List<ResultTable> tables() {
    return List.copyOf(tables);
  }

  /** Adds w17's throughput by client count, which the concurrency chart draws. */
  public void addConcurrency(List<ConcurrentClients.Point> points) {
    concurrency.addAll(points);
  }

  public List<ConcurrentClients.Point> concurrency() {
    return List.copyOf(concurrency);
  }

  /** Adds a chart that the Markdown document shows. */
  public void chart(Chart chart) {
    charts.add(Objects.requireNonNull(chart, "chart"));
  }

  public List<Row> rows() {
    return List.copyOf(rows);
  }

  /**
   * The rows with a note instead of latencies: systems that failed, answered wrongly or were
   * skipped, and streamed runs, which report a rate and heap in words.
   */
  public List<Row> notes() {
    return rows.stream().filter(r -> r.outcome().stats() == null).toList();
  }

  public List<PlanningPoint> planning() {
    return List.copyOf(planning);
  }

  /** The results as a fixed-width table. */
  public String table() {
    final String format = "%-38s %-6s %12s %12s %12s%n";
    final StringBuilder b = new StringBuilder(formatted(format,
        "workload", "system", "median ms", "p99 ms", "ops/s"));
    for (Row row : rows) {
      final List<String> cells = row.cells();
      b.append(cells.size() == 1
          ? formatted("%-38s %-6s %s%n", row.workload(), row.system(), cells.get(0))
          : formatted(format, row.workload(), row.system(), cells.get(0), cells.get(1),
              cells.get(2)));
    }
    startups.forEach((name, stats) -> b.append(formatted("%n%s: median %s ms, p99 %s ms,"
        + " %d runs%n", name, millis(stats.medianMillis()), millis(stats.p99Millis()),
        stats.count())));
    if (!planning.isEmpty()) {
      b.append(formatted("%nw8 plan point query%n%-6s %8s %14s %14s%n", "system", "shards",
          "plan median ms", "load ms"));
      for (PlanningPoint p : planning) {
        b.append(formatted("%-6s %8d %14s %14s%n", p.system(), p.shards(), p.medianText(),
            millis(p.loadMillis())));
      }
      b.append(planningRatios()).append('\n');
    }
    tables.forEach(table -> b.append('\n').append(table.text()));
    if (!targets.isEmpty()) {
      b.append("\nagainst the targets\n");
      targets.forEach(line -> b.append(line).append('\n'));
    }
    return b.toString();
  }

  /** The results as a Markdown document with the date, machine and versions. */
  public String markdown() {
    final StringBuilder b = new StringBuilder("# ShardSet benchmark results\n\n");
    for (String line : environment()) {
      b.append("- ").append(line).append('\n');
    }
    for (String line : settings) {
      b.append("- ").append(line).append('\n');
    }
    b.append("\n| workload | system | median ms | p99 ms | ops/s |\n");
    b.append("| --- | --- | ---: | ---: | ---: |\n");
    for (Row row : rows) {
      final List<String> cells = row.cells();
      b.append("| ").append(row.workload()).append(" | ").append(row.system()).append(" | ")
          .append(cells.size() == 1 ? cells.get(0).replace("|", "\\|") + " | |"
              : String.join(" | ", cells))
          .append(" |\n");
    }
    if (!startups.isEmpty()) {
      b.append("\n| wall time | median ms | p99 ms | runs |\n| --- | ---: | ---: | ---: |\n");
      startups.forEach((name, stats) -> b.append("| ").append(name).append(" | ")
          .append(millis(stats.medianMillis())).append(" | ").append(millis(stats.p99Millis()))
          .append(" | ").append(stats.count()).append(" |\n"));
    }
    if (!planning.isEmpty()) {
      b.append("\n## w8: planning one point query, by shard count\n\n");
      b.append("Load is the time to open the connection, once; ShardSet reads every shard's"
          + " metadata then.\n\n");
      b.append("| system | shards | plan median ms | plan p99 ms | load ms |\n");
      b.append("| --- | ---: | ---: | ---: | ---: |\n");
      for (PlanningPoint p : planning) {
        b.append("| ").append(p.system()).append(" | ").append(p.shards()).append(" | ")
            .append(p.medianText()).append(" | ")
            .append(p.planning().map(s -> millis(s.p99Millis())).orElse("")).append(" | ")
            .append(millis(p.loadMillis())).append(" |\n");
      }
      b.append('\n').append(planningRatios());
    }
    tables.forEach(table -> b.append(table.markdown()));
    if (!targets.isEmpty()) {
      b.append("\n## Against the targets\n\n");
      targets.forEach(line -> b.append("- ").append(line).append('\n'));
    }
    for (Chart chart : charts) {
      b.append("\n![").append(chart.title()).append("](").append(chart.fileName()).append(")\n");
    }
    return b.toString();
  }

  /** Per system, its median planning time at the most shards over that at the fewest. */
  String planningRatios() {
    final StringBuilder b = new StringBuilder();
    for (PlanningRatio ratio : PlanningRatio.of(planning)) {
      b.append(formatted("%s planning at %d shards / at %d shards: %.2f%n", ratio.system(),
          ratio.mostShards(), ratio.fewestShards(), ratio.value()));
    }
    return b.toString();
  }

  /** The date, machine and versions of this run. */
  @SuppressForbidden(reason = "reads the physical memory where the JVM offers it, -1 elsewhere")
  public static List<String> environment() {
    final Runtime runtime = Runtime.getRuntime();
    long physical = -1;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      physical = os.getTotalMemorySize();
    }
    return List.of(
        "date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
        "machine: " + runtime.availableProcessors() + " cores, "
            + (physical < 0 ? "unknown" : physical / (1L << 20) + " MiB") + " memory, "
            + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch")
            + formatted(", load average %.2f (other work on the machine adds noise)",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()),
        "java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
            + ", max heap " + runtime.maxMemory() / (1L << 20) + " MiB",
        "versions: Calcite " + calciteVersion()
            + ", H2 " + org.h2.engine.Constants.FULL_VERSION
            + ", ShardSet " + shardSetVersion() + optionalVersions());
  }

  private static String optionalVersions() {
    final StringBuilder b = new StringBuilder();
    ComponentVersions.optional().forEach((name, version) ->
        b.append(", ").append(name).append(' ').append(version));
    return b.toString();
  }

  private static String calciteVersion() {
    try (Connection c = DriverManager.getConnection("jdbc:calcite:")) {
      return c.getMetaData().getDriverVersion();
    } catch (SQLException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  private static String shardSetVersion() {
    final String v = ShardSchemaFactory.class.getPackage().getImplementationVersion();
    return v == null ? "built from this source tree" : v;
  }

  static String millis(double value) {
    return value < 1 ? formatted("%.3f", value) : formatted("%.1f", value);
  }

  private static String rate(double value) {
    return value < 10 ? formatted("%.1f", value) : formatted("%,.0f", value);
  }

  /** {@link String#format} in the root locale: the report reads the same on every machine. */
  private static String formatted(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
