package io.shardset.bench;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.remote.Driver;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * w21: many clients through the server. {@value #CLIENTS} client threads each run the light
 * mix (the w1 point query, the w2 IN list of ten keys, the w3 scatter aggregate and the w4
 * sorted top 100, in turn, new keys each time) as fast as they can for a window, first each on
 * its own embedded {@code jdbc:shardset:} connection (X), then each on its own remote
 * connection to a {@code shardset server} running in this JVM on the same model (XR, results
 * read ahead of their clients, the server's defaults); the statements answered give the
 * throughput, their latencies the median and p99. The server, its clients and the shards share
 * the machine's cores.
 */
public final class RemoteClients {
  /** The client threads. */
  public static final int CLIENTS = 64;

  /** One system's measurement. */
  public record Point(String system, Stats stats, int failures) {
  }

  private final BenchDatabase db;
  private final Duration warmUp;
  private final Duration window;

  public RemoteClients(BenchDatabase db, Duration warmUp, Duration window) {
    this.db = db;
    this.warmUp = warmUp;
    this.window = window;
  }

  /** Opens a client's connection. */
  private interface Connector {
    Connection open() throws SQLException;
  }

  /**
   * Measures X embedded, then XR through a server. One process's remote clients share
   * Avatica's HTTP pool, 25 connections per server unless these properties say otherwise
   * before the first remote connection: 64 client processes would not queue behind each
   * other there.
   */
  public List<Point> measure(Path folder) throws Exception {
    System.setProperty("avatica.pooled.connections.per.route", String.valueOf(2 * CLIENTS));
    System.setProperty("avatica.pooled.connections.max", String.valueOf(2 * CLIENTS));
    final List<Point> points = new ArrayList<>();
    points.add(run("X", db::connectShardSet));
    final Path model = folder.resolve("w21-model.json");
    Files.createDirectories(folder);
    Files.writeString(model, Models.shardSetOver(db.shards(), 8), StandardCharsets.UTF_8);
    try (ShardSetServer server = ShardSetServer.start(ServerSettings.loopback(model, 0,
        Driver.Serialization.PROTOBUF))) {
      points.add(run("XR", () -> DriverManager.getConnection(server.jdbcUrl())));
    }
    return points;
  }

  private Point run(String system, Connector connector) throws Exception {
    System.out.println("  w21 " + system + " with " + CLIENTS + " clients");
    final long measureFrom = System.nanoTime() + warmUp.toNanos();
    final long end = measureFrom + window.toNanos();
    final ExecutorService executor = Executors.newFixedThreadPool(CLIENTS);
    final List<Future<long[]>> results = new ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      final int client = i;
      results.add(executor.submit(() -> client(client, connector, measureFrom, end)));
    }
    executor.shutdown();
    final List<Long> latencies = new ArrayList<>();
    int failures = 0;
    for (Future<long[]> result : results) {
      final long[] nanos = result.get(10, TimeUnit.MINUTES);
      for (long n : nanos) {
        if (n < 0) {
          failures++;
        } else {
          latencies.add(n);
        }
      }
    }
    final long[] all = latencies.stream().mapToLong(Long::longValue).toArray();
    final Stats stats = Stats.of(all);
    // Stats' rate is that of one client's latencies; the clients' together is per window.
    return new Point(system, new Stats(stats.count(), stats.medianMillis(), stats.p99Millis(),
        all.length / (window.toNanos() / 1e9)), failures);
  }

  /** One client's latencies in the window, a failure as -1. */
  private long[] client(int client, Connector connector, long measureFrom, long end)
      throws SQLException {
    final List<Long> nanos = new ArrayList<>();
    final BenchData data = db.data();
    try (Connection c = connector.open();
         PreparedStatement point = c.prepareStatement(Workloads.POINT);
         PreparedStatement in = c.prepareStatement(Workloads.IN_LIST);
         PreparedStatement aggregate = c.prepareStatement(Workloads.AGGREGATE);
         PreparedStatement top = c.prepareStatement(Workloads.TOP)) {
      int n = client * 1_000_003;
      for (long start = System.nanoTime(); start < end; start = System.nanoTime()) {
        final PreparedStatement statement;
        switch (n % 4) {
        case 0 -> {
          point.setLong(1, data.customerKey(n));
          statement = point;
        }
        case 1 -> {
          for (int k = 0; k < Workloads.IN_KEYS; k++) {
            in.setLong(k + 1, data.customerKey(n * Workloads.IN_KEYS + k));
          }
          statement = in;
        }
        case 2 -> statement = aggregate;
        default -> statement = top;
        }
        n++;
        long took;
        try (ResultSet rs = statement.executeQuery()) {
          final int columns = rs.getMetaData().getColumnCount();
          while (rs.next()) {
            for (int i = 1; i <= columns; i++) {
              rs.getObject(i);
            }
          }
          took = System.nanoTime() - start;
        } catch (SQLException | RuntimeException e) {
          took = -1;
        }
        if (start >= measureFrom) {
          nanos.add(took);
        }
      }
    }
    return nanos.stream().mapToLong(Long::longValue).toArray();
  }

  /** The table of the points. */
  public static ResultTable table(String backend, List<Point> points, Duration window) {
    final List<List<String>> rows = new ArrayList<>();
    for (Point p : points) {
      rows.add(List.of(p.system(), Integer.toString(CLIENTS),
          String.format(Locale.ROOT, "%,.0f", p.stats().opsPerSecond()),
          Report.millis(p.stats().medianMillis()), Report.millis(p.stats().p99Millis()),
          Integer.toString(p.failures())));
    }
    return new ResultTable("w21 " + CLIENTS + " clients, light mix, embedded and through the"
        + " server (" + backend + ")",
        "Each client a thread running the w1 point query, the w2 IN list, the w3 aggregate and"
        + " the w4 top 100 in turn for " + window.toSeconds() + " s after a warm-up; X: each"
        + " client its own jdbc:shardset: connection; XR: each client its own remote connection"
        + " to a shardset server in the same JVM (its default result read-ahead); statements/s"
        + " of all clients together.",
        List.of("system", "clients", "statements/s", "median ms", "p99 ms", "failed"), rows);
  }
}
