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
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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

  private Point run(String system, WindowedClients.Connector connector) throws Exception {
    System.out.println("  w21 " + system + " with " + CLIENTS + " clients");
    final WindowedClients.Result result =
        WindowedClients.run(CLIENTS, warmUp, window, client -> session(connector));
    return new Point(system, result.stats(window), result.failures());
  }

  /** A client's light mix: the point query, the IN list, the aggregate and the top 100 in
   * turn, new keys each time. */
  private WindowedClients.Session session(WindowedClients.Connector connector) throws SQLException {
    final BenchData data = db.data();
    final Connection c = connector.open();
    final PreparedStatement point = c.prepareStatement(Workloads.POINT);
    final PreparedStatement in = c.prepareStatement(Workloads.IN_LIST);
    final PreparedStatement aggregate = c.prepareStatement(Workloads.AGGREGATE);
    final PreparedStatement top = c.prepareStatement(Workloads.TOP);
    return new WindowedClients.Session() {
      @Override public void run(int n) throws SQLException {
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
        WindowedClients.readAll(statement.executeQuery());
      }

      @Override public void close() throws SQLException {
        c.close();
      }
    };
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
