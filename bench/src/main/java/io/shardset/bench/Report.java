package io.shardset.bench;

import io.shardset.calcite.ShardSchemaFactory;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The results of one run: a row per system and workload, with the machine and versions. */
public final class Report {
  /** One measured system in one workload. */
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

  private final List<Row> rows = new ArrayList<>();
  private final List<String> settings = new ArrayList<>();

  /** Adds a workload's results, in the systems' order. */
  public void add(String workload, Map<String, Outcome> bySystem) {
    bySystem.forEach((system, outcome) -> rows.add(new Row(workload, system, outcome)));
  }

  /** Adds a line describing how the run was made (data size, rounds). */
  public void setting(String line) {
    settings.add(Objects.requireNonNull(line, "line"));
  }

  public List<Row> rows() {
    return List.copyOf(rows);
  }

  /** The results as a fixed-width table. */
  public String table() {
    final String format = "%-38s %-6s %12s %12s %12s%n";
    final StringBuilder b = new StringBuilder(String.format(format,
        "workload", "system", "median ms", "p99 ms", "ops/s"));
    for (Row row : rows) {
      final List<String> cells = row.cells();
      b.append(cells.size() == 1
          ? String.format("%-38s %-6s %s%n", row.workload(), row.system(), cells.get(0))
          : String.format(format, row.workload(), row.system(), cells.get(0), cells.get(1),
              cells.get(2)));
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
          .append(cells.size() == 1 ? cells.get(0) + " | | " : String.join(" | ", cells))
          .append(" |\n");
    }
    return b.toString();
  }

  /** The date, machine and versions of this run. */
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
            + System.getProperty("os.name") + " " + System.getProperty("os.arch")
            + String.format(", load average %.2f (other work on the machine adds noise)",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()),
        "java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
            + ", max heap " + runtime.maxMemory() / (1L << 20) + " MiB",
        "versions: Calcite " + calciteVersion()
            + ", H2 " + org.h2.engine.Constants.FULL_VERSION
            + ", PgJDBC " + org.postgresql.util.DriverInfo.DRIVER_VERSION
            + ", ShardSet " + shardSetVersion());
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

  private static String millis(double value) {
    return value < 1 ? String.format("%.3f", value) : String.format("%.1f", value);
  }

  private static String rate(double value) {
    return value < 10 ? String.format("%.1f", value) : String.format("%,.0f", value);
  }
}
