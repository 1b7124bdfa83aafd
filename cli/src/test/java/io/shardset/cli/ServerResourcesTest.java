package io.shardset.cli;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.calcite.ShardTable;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardPools;
import io.shardset.testing.LongTest;
import io.shardset.testing.PostgresItems;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.remote.CommonsHttpClientPoolCache;
import org.apache.calcite.avatica.remote.Driver;

import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.shardset.testing.PostgresItems.awaitValue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What remote clients leave behind on a server of four PostgreSQL shards: a connection closed
 * with its ResultSets open, or a client that vanished mid-result, leaves no shard session in a
 * transaction and no pooled connection checked out.
 */
class ServerResourcesTest {
  static final int ROWS_PER_SHARD = 20_000;
  static PostgresItems items;

  @TempDir Path folder;
  private Path modelFile;
  private ShardSetServer server;
  private Connection local;
  private List<ShardEndpoint> endpoints;

  @BeforeAll static void createShards() throws SQLException {
    items = PostgresItems.create("server", ROWS_PER_SHARD);
  }

  @AfterAll static void dropShards() throws SQLException {
    items.drop();
  }

  @BeforeEach void writeModel() throws Exception {
    modelFile = folder.resolve("model.json");
    Files.writeString(modelFile, items.model(""), StandardCharsets.UTF_8);
    final Properties info = new Properties();
    info.setProperty("model", modelFile.toString());
    // The server's pools are the model's: the connections of one model share them, and this
    // one keeps them open while the test runs.
    local = DriverManager.getConnection("jdbc:shardset:", info);
    final ShardTable items = ShardFixture.schema(local).table("ITEMS");
    endpoints = new ArrayList<>();
    for (int i = 0; i < items.shardCount(); i++) {
      endpoints.add(items.site(i).endpoint());
    }
  }

  @AfterEach void stopServer() throws SQLException {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      local.close();
    }
  }

  @Test void closingARemoteConnectionWithOpenResultSetsReleasesTheShards() throws Exception {
    server = ShardSetServer.start(settings(ServerSettings.DEFAULT_IDLE_TIMEOUT));
    final Connection remote = readTenRowsOfAll();
    remote.close();
    awaitReleased();
  }

  @Test void aVanishedClientIsClosedAfterTheIdleTimeout() throws Exception {
    server = ShardSetServer.start(settings(Duration.ofSeconds(2)));
    readTenRowsOfAll();
    // The client goes away without a word; the server notices by itself.
    final long start = System.nanoTime();
    awaitReleased();
    System.out.printf(Locale.ROOT, "vanished client: shard connections released %d ms later"
        + " (idle timeout 2000 ms)%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  /**
   * 64 remote clients run queries of every size for 60 s against pools of 8 connections per
   * shard, an eighth of them reading slowly: every query returns its rows, or fails saying a
   * shard was busy, and nothing is left checked out.
   */
  @LongTest
  @Test void manyClientsShareFewShardConnections() throws Exception {
    server = ShardSetServer.start(settings(ServerSettings.DEFAULT_IDLE_TIMEOUT));
    // The clients share this JVM's Avatica HTTP pool, 25 connections to a server by default:
    // their requests would queue behind each other there, as 64 client processes' do not.
    try (Connection probe = DriverManager.getConnection(server.jdbcUrl())) {
      final PoolingHttpClientConnectionManager http =
          CommonsHttpClientPoolCache.getPool(probe.unwrap(AvaticaConnection.class).config());
      http.setDefaultMaxPerRoute(128);
      http.setMaxTotal(256);
    }
    final int clients = 64;
    final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    final ExecutorService executor = Executors.newFixedThreadPool(clients);
    final List<Future<int[]>> results = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      final int client = i;
      results.add(executor.submit(() -> runClient(client, end)));
    }
    executor.shutdown();
    int queries = 0;
    int busy = 0;
    for (Future<int[]> result : results) {
      final int[] counts = result.get(5, TimeUnit.MINUTES);
      queries += counts[0];
      busy += counts[1];
    }
    System.out.printf(Locale.ROOT, "64 clients for 60 s: %d queries answered, %d refused as busy%n",
        queries, busy);
    assertTrue(queries > clients, "only " + queries + " queries answered");
    awaitReleased();
  }

  /** The queries of the clients, and how many rows each returns. */
  private static final List<String> QUERIES = List.of(
      "SELECT * FROM ITEMS WHERE ID = 3000017",
      "SELECT ID, V FROM ITEMS WHERE ID BETWEEN 1000001 AND 1000500",
      "SELECT V, COUNT(*) FROM ITEMS GROUP BY V",
      "SELECT ID FROM ITEMS ORDER BY ID DESC LIMIT 50",
      "SELECT ID, V FROM ITEMS WHERE V = 3",
      "SELECT ID, V, PAD FROM ITEMS WHERE MOD(ID, 4) = 0");
  private static final List<Integer> ROWS = List.of(1, 500, 7, 50,
      4 * (ROWS_PER_SHARD / 7), ROWS_PER_SHARD);

  /** Runs queries until the end; returns the queries answered and refused as busy. */
  private int[] runClient(int client, long end) throws SQLException {
    final Random random = new Random(client);
    final boolean slow = client % 8 == 0;
    int answered = 0;
    int busy = 0;
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
      while (System.nanoTime() < end) {
        final int query = random.nextInt(QUERIES.size());
        try (Statement s = remote.createStatement()) {
          // Frames of 1000 rows rather than Avatica's 100, as tools that read much ask for.
          s.setFetchSize(1000);
          final ResultSet rs = s.executeQuery(QUERIES.get(query));
          int rows = 0;
          while (rs.next()) {
            if (++rows % 200 == 0 && slow) {
              // A slow reader: a client that works on its rows.
              LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
          }
          assertEquals(ROWS.get(query), rows, QUERIES.get(query));
          answered++;
        } catch (SQLException | RuntimeException e) {
          // Avatica reports a failure while fetching as an unchecked exception.
          if (!messages(e).contains("' is busy: all 8 connections in use for 30000 ms")) {
            throw e;
          }
          busy++;
        }
      }
    }
    return new int[] {answered, busy};
  }

  private static String messages(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append('\n');
    }
    return b.toString();
  }

  /** Opens a remote connection and reads 10 rows of every item, holding shard connections. */
  private Connection readTenRowsOfAll() throws SQLException {
    final Connection remote = DriverManager.getConnection(server.jdbcUrl());
    final ResultSet rs = remote.createStatement().executeQuery("SELECT * FROM ITEMS");
    for (int i = 0; i < 10; i++) {
      assertTrue(rs.next());
    }
    assertTrue(checkedOut() > 0);
    return remote;
  }

  private ServerSettings settings(Duration idleTimeout) {
    return ServerSettings.loopback(modelFile, 0, Driver.Serialization.PROTOBUF)
        .withIdleTimeout(idleTimeout);
  }

  /** Waits until no pooled connection is out, no shard session busy, no scan open. */
  private void awaitReleased() {
    awaitValue(0, this::checkedOut);
    awaitValue(0, items::busySessions);
    awaitValue(0, () -> ShardSetRuntime.get().openScans().openScans());
  }

  int checkedOut() {
    return endpoints.stream().mapToInt(ShardPools::activeConnections).sum();
  }
}
