package io.shardset.bench;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.remote.Driver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * w24: the w1 point query through the PostgreSQL port. 1, 8 and 32 client threads each run
 * w1 (prepared, a new shard key each time) for a window after a warm-up: on the embedded
 * driver (X), through a {@code shardset server} in this JVM over Avatica's protocol (XR) and
 * over PostgreSQL's with pgJDBC (XP), and as pgbench's clients ({@code -M prepared}, one
 * thread per client up to the machine's cores) through the same port (XB). The protocol's
 * cost per routed point query is XP's median at one client less X's. The server, its clients
 * and the shards share the machine's cores.
 */
public final class PgPortClients {
  /** The client counts measured. */
  public static final List<Integer> CLIENTS = List.of(1, 8, 32);

  /** One system at one client count; XB's median and p99 are from pgbench's log. */
  public record Point(String system, int clients, Stats stats, int failures) {
  }

  private final BenchDatabase db;
  private final Duration warmUp;
  private final Duration window;

  public PgPortClients(BenchDatabase db, Duration warmUp, Duration window) {
    this.db = db;
    this.warmUp = warmUp;
    this.window = window;
  }

  /** Measures X, then XR, XP and XB through one server on the same model. */
  public List<Point> measure(Path folder) throws Exception {
    System.setProperty("avatica.pooled.connections.per.route", "64");
    System.setProperty("avatica.pooled.connections.max", "64");
    final List<Point> points = new ArrayList<>();
    for (int clients : CLIENTS) {
      points.add(run("X", clients, db::connectShardSet));
    }
    final Path model = folder.resolve("w24-model.json");
    Files.createDirectories(folder);
    Files.writeString(model, Models.shardSetOver(db.shards(), 8), StandardCharsets.UTF_8);
    try (ShardSetServer server = ShardSetServer.start(ServerSettings.loopback(model, 0,
        Driver.Serialization.PROTOBUF).withPgPort(0))) {
      final String pgUrl = "jdbc:postgresql://127.0.0.1:" + server.pgPort()
          + "/shardset?user=bench";
      for (int clients : CLIENTS) {
        points.add(run("XR", clients, () -> DriverManager.getConnection(server.jdbcUrl())));
        points.add(run("XP", clients, () -> DriverManager.getConnection(pgUrl)));
        points.add(pgbench(clients, server.pgPort(), folder));
      }
    }
    return points;
  }

  private Point run(String system, int clients, WindowedClients.Connector connector)
      throws Exception {
    System.out.println("  w24 " + system + " with " + clients + " clients");
    final WindowedClients.Result result =
        WindowedClients.run(clients, warmUp, window, client -> session(connector));
    return new Point(system, clients, result.stats(window), result.failures());
  }

  /** A client's w1: the point query, a new customer each time. */
  private WindowedClients.Session session(WindowedClients.Connector connector) throws SQLException {
    final BenchData data = db.data();
    final Connection c = connector.open();
    final PreparedStatement point = c.prepareStatement(Workloads.POINT);
    return new WindowedClients.Session() {
      @Override public void run(int n) throws SQLException {
        point.setLong(1, data.customerKey(n));
        WindowedClients.readAll(point.executeQuery());
      }

      @Override public void close() throws SQLException {
        c.close();
      }
    };
  }

  /**
   * XB: pgbench's clients running w1 with {@code -M prepared} for the warm-up and the window;
   * the latencies of the window's transactions from its per-transaction log.
   */
  private Point pgbench(int clients, int port, Path folder) throws Exception {
    System.out.println("  w24 XB (pgbench) with " + clients + " clients");
    final Path script = folder.resolve("w24.sql");
    Files.writeString(script, "\\set customer random(1, " + db.data().customers() + ")\n"
        + Workloads.POINT.replace("?", ":customer") + ";\n", StandardCharsets.UTF_8);
    final Path logs = Files.createDirectories(folder.resolve("w24-pgbench-" + clients));
    try (Stream<Path> old = Files.list(logs)) {
      for (Path file : old.toList()) {
        Files.delete(file);
      }
    }
    final long seconds = (warmUp.plus(window)).toSeconds();
    final int threads = Math.min(clients, Runtime.getRuntime().availableProcessors());
    final Process process = new ProcessBuilder("pgbench", "-h", "127.0.0.1",
        "-p", Integer.toString(port), "-U", "bench", "-n", "-M", "prepared",
        "-c", Integer.toString(clients), "-j", Integer.toString(threads),
        "-T", Long.toString(seconds), "-f", script.toString(), "-l",
        "--log-prefix=" + logs.resolve("log"), "shardset")
        .redirectErrorStream(true).start();
    final String out = new String(process.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    if (!process.waitFor(seconds + 120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("pgbench failed: " + out);
    }
    final long measureFromMicros = firstEpochMicros(logs) + warmUp.toNanos() / 1000;
    final List<Long> nanos = new ArrayList<>();
    int failures = 0;
    try (Stream<Path> files = Files.list(logs)) {
      for (Path file : files.toList()) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          // client transaction latency_us script epoch_s epoch_us
          final String[] f = line.trim().split(" ");
          final long at = Long.parseLong(f[4]) * 1_000_000L + Long.parseLong(f[5]);
          if (at < measureFromMicros) {
            continue;
          }
          if (f[2].equals("failed") || f[2].equals("skipped")) {
            failures++;
          } else {
            nanos.add(Long.parseLong(f[2]) * 1000L);
          }
        }
      }
    }
    return new Point("XB", clients,
        new WindowedClients.Result(nanos.stream().mapToLong(Long::longValue).toArray(), failures)
            .stats(window), failures);
  }

  /** When pgbench's first logged transaction ended, in microseconds since the epoch. */
  private static long firstEpochMicros(Path logs) throws IOException {
    long first = Long.MAX_VALUE;
    try (Stream<Path> files = Files.list(logs)) {
      for (Path file : files.toList()) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          final String[] f = line.trim().split(" ");
          first = Math.min(first, Long.parseLong(f[4]) * 1_000_000L + Long.parseLong(f[5]));
        }
      }
    }
    return first;
  }

  /** The table of the points, and the protocol's cost per query at one client. */
  public static ResultTable table(String backend, List<Point> points, Duration window) {
    final List<List<String>> rows = new ArrayList<>();
    for (Point p : points) {
      rows.add(List.of(p.system(), Integer.toString(p.clients()),
          String.format(Locale.ROOT, "%,.0f", p.stats().opsPerSecond()),
          Report.millis(p.stats().medianMillis()), Report.millis(p.stats().p99Millis()),
          Integer.toString(p.failures())));
    }
    return new ResultTable("w24 the w1 point query through the PostgreSQL port (" + backend
        + ")",
        "Each client a thread running the w1 point query (prepared, a new customer each time)"
        + " for " + window.toSeconds() + " s after a warm-up; X: its own jdbc:shardset:"
        + " connection; XR: its own Avatica remote connection to a shardset server in the same"
        + " JVM; XP: its own pgJDBC connection to that server's PostgreSQL port; XB: pgbench"
        + " -M prepared against the port, latencies from its transaction log. The protocol's"
        + " cost per routed point query: " + overhead(points) + ". Queries/s of all clients"
        + " together.",
        List.of("system", "clients", "queries/s", "median ms", "p99 ms", "failed"), rows);
  }

  /** XP's and XR's median at one client less X's. */
  static String overhead(List<Point> points) {
    final double x = median(points, "X");
    return String.format(Locale.ROOT, "PostgreSQL's %.3f ms, Avatica's %.3f ms",
        median(points, "XP") - x, median(points, "XR") - x);
  }

  private static double median(List<Point> points, String system) {
    return points.stream().filter(p -> p.system().equals(system) && p.clients() == 1)
        .findFirst().map(p -> p.stats().medianMillis()).orElse(Double.NaN);
  }
}
