package io.shardset.cli;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.calcite.ShardTable;
import io.shardset.cli.server.ResultSpooling;
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

  /**
   * A client that reads slowly, or stops, holds no shard connection: while it holds its first
   * row, the server reads the rest of the result ahead of it (most of it into a file, past
   * 4 MiB) and the shard connections go back to the pools; the rows the client then fetches
   * are the result's, every one once.
   */
  @Test void aResultReadAheadHoldsNoShardConnection() throws Exception {
    server = ShardSetServer.start(settings(ServerSettings.DEFAULT_IDLE_TIMEOUT));
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl());
         Statement s = remote.createStatement();
         ResultSet rs = s.executeQuery("SELECT ID, V, PAD FROM ITEMS")) {
      assertTrue(rs.next());
      // The client reads nothing more meanwhile.
      awaitReleased();
      assertEveryItemOnce(rs);
    }
  }

  /**
   * Inside a transaction a result is read ahead on the transaction's connections while other
   * statements of the transaction use them: a write between two fetches changes its row, the
   * result gives every row once, and the transaction reads its write.
   */
  @Test void aTransactionsResultAndItsWritesShareItsConnections() throws Exception {
    server = ShardSetServer.start(settings(ServerSettings.DEFAULT_IDLE_TIMEOUT));
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl());
         Statement s = remote.createStatement();
         Statement w = remote.createStatement()) {
      remote.setAutoCommit(false);
      try (ResultSet rs = s.executeQuery("SELECT ID, V, PAD FROM ITEMS")) {
        assertTrue(rs.next());
        assertEquals(1, w.executeUpdate("UPDATE ITEMS SET V = V + 100 WHERE ID = 3000017"));
        assertEveryItemOnce(rs);
      }
      try (ResultSet rs = w.executeQuery("SELECT V FROM ITEMS WHERE ID = 3000017")) {
        assertTrue(rs.next());
        assertEquals(17 % 7 + 100, rs.getInt(1));
      }
      remote.rollback();
    }
    awaitReleased();
  }

  /** Past the spool's limit, the rest of a result is read from the shards as it is fetched. */
  @Test void aResultBeyondTheSpoolLimitIsStreamedOnwards() throws Exception {
    server = ShardSetServer.start(settings(ServerSettings.DEFAULT_IDLE_TIMEOUT)
        .withSpooling(new ResultSpooling(16 << 10, 1 << 20, 64 << 10, folder,
            Duration.ofSeconds(30))));
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl());
         Statement s = remote.createStatement();
         ResultSet rs = s.executeQuery("SELECT ID, V, PAD FROM ITEMS")) {
      assertTrue(rs.next());
      assertTrue(checkedOut() > 0);
      assertEveryItemOnce(rs);
    }
    awaitReleased();
    try (java.util.stream.Stream<Path> left = Files.list(folder)) {
      assertEquals(List.of(), left.filter(f -> f.getFileName().toString()
          .startsWith("shardset-result-")).toList(), "spool files left");
    }
  }

  /** Reads the rest of a result of every item, on its first row: each item is there once. */
  private static void assertEveryItemOnce(ResultSet rs) throws SQLException {
    long rows = 1;
    long ids = rs.getLong(1);
    while (rs.next()) {
      rows++;
      ids += rs.getLong(1);
    }
    assertEquals(4L * ROWS_PER_SHARD, rows);
    assertEquals(expectedIdSum(), ids);
  }

  /** The sum of every ITEMS id, as the shards hold them. */
  private static long expectedIdSum() {
    long sum = 0;
    for (int shard = 0; shard < 4; shard++) {
      final long first = shard * 1_000_000L + 1;
      sum += ROWS_PER_SHARD * first + (long) ROWS_PER_SHARD * (ROWS_PER_SHARD - 1) / 2;
    }
    return sum;
  }

  @Test void closingARemoteConnectionWithOpenResultSetsReleasesTheShards() throws Exception {
    server = ShardSetServer.start(streaming(ServerSettings.DEFAULT_IDLE_TIMEOUT));
    final Connection remote = readTenRowsOfAll();
    remote.close();
    awaitReleased();
  }

  /**
   * A client that vanished while its result was streamed from the shards holds them for the
   * fetch timeout, not for the idle timeout's five minutes.
   */
  @Test void aVanishedClientOfAStreamedResultIsClosedAfterTheFetchTimeout() throws Exception {
    server = ShardSetServer.start(settings(ServerSettings.DEFAULT_IDLE_TIMEOUT).withSpooling(
        ResultSpooling.DEFAULT.streamed().withFetchTimeout(Duration.ofSeconds(2))));
    readTenRowsOfAll();
    final long start = System.nanoTime();
    awaitReleased();
    System.out.printf(Locale.ROOT, "vanished client of a streamed result: shard connections"
        + " released %d ms later (fetch timeout 2000 ms, idle timeout 300 s)%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  @Test void aVanishedClientIsClosedAfterTheIdleTimeout() throws Exception {
    server = ShardSetServer.start(streaming(Duration.ofSeconds(2)));
    readTenRowsOfAll();
    // The client goes away without a word; the server notices by itself.
    final long start = System.nanoTime();
    awaitReleased();
    System.out.printf(Locale.ROOT, "vanished client: shard connections released %d ms later"
        + " (idle timeout 2000 ms)%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  /**
   * 64 remote clients run queries of every size for 60 s against pools of 8 connections per
   * shard, a quarter of them reading slowly (16 slow readers would hold 16 connections of
   * each shard's 8 if their results were read at their pace): every query returns its rows
   * (none is refused as busy: results are read ahead of their clients), no shard session
   * stays idle in a transaction for 5 s, and nothing is left checked out.
   */
  @LongTest
  @Test void sixtyFourClientsShareFewShardConnections() throws Exception {
    manyClients(64);
  }

  /** As {@link #sixtyFourClientsShareFewShardConnections}, with 256 clients. */
  @LongTest
  @Test void twoHundredFiftySixClientsShareFewShardConnections() throws Exception {
    manyClients(256);
  }

  private void manyClients(int clients) throws Exception {
    server = ShardSetServer.start(settings(ServerSettings.DEFAULT_IDLE_TIMEOUT));
    // The clients share this JVM's Avatica HTTP pool, 25 connections to a server by default:
    // their requests would queue behind each other there, as separate processes' do not.
    try (Connection probe = DriverManager.getConnection(server.jdbcUrl())) {
      final PoolingHttpClientConnectionManager http =
          CommonsHttpClientPoolCache.getPool(probe.unwrap(AvaticaConnection.class).config());
      http.setDefaultMaxPerRoute(2 * clients);
      http.setMaxTotal(4 * clients);
    }
    final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    final ExecutorService executor = Executors.newFixedThreadPool(clients);
    final List<Future<List<Long>>> results = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      final int client = i;
      results.add(executor.submit(() -> runClient(client, end)));
    }
    executor.shutdown();
    // Watches the shards meanwhile: a session idle in a transaction for 5 s or more would be
    // a result held open at its client's pace (a slow client takes up to 10 s).
    int longestIdle = 0;
    while (!executor.awaitTermination(500, TimeUnit.MILLISECONDS)) {
      longestIdle = Math.max(longestIdle, items.sessionsIdleInTransactionFor(5));
    }
    final List<Long> micros = new ArrayList<>();
    for (Future<List<Long>> result : results) {
      micros.addAll(result.get());
    }
    micros.sort(null);
    System.out.printf(Locale.ROOT, "%d clients for 60 s: %d queries answered, p50 %d ms,"
        + " p99 %d ms, max %d ms%n", clients, micros.size(),
        micros.get(micros.size() / 2) / 1000, micros.get(micros.size() * 99 / 100) / 1000,
        micros.get(micros.size() - 1) / 1000);
    assertEquals(0, longestIdle, "shard sessions idle in a transaction for 5 s or more");
    assertTrue(micros.size() > clients, "only " + micros.size() + " queries answered");
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

  /**
   * Runs queries until the end; returns each one's time in microseconds, from executing it to
   * its last row. Every query must succeed.
   */
  private List<Long> runClient(int client, long end) throws SQLException {
    final Random random = new Random(client);
    final boolean slow = client % 4 == 0;
    final List<Long> micros = new ArrayList<>();
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
      while (System.nanoTime() < end) {
        final int query = random.nextInt(QUERIES.size());
        final long start = System.nanoTime();
        try (Statement s = remote.createStatement()) {
          // Fast clients ask for frames of 1000 rows, as tools that read much do; slow ones
          // take Avatica's 100 and work 50 ms on each frame, as a person paging or a client
          // on a slow network does: 10 s for the largest result.
          s.setFetchSize(slow ? 100 : 1000);
          final ResultSet rs = s.executeQuery(QUERIES.get(query));
          int rows = 0;
          while (rs.next()) {
            if (++rows % 100 == 0 && slow) {
              LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
          }
          assertEquals(ROWS.get(query), rows, QUERIES.get(query));
        }
        micros.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start));
      }
    }
    return micros;
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

  /** Settings where every result is read from the shards as its client fetches it. */
  private ServerSettings streaming(Duration idleTimeout) {
    return settings(idleTimeout).withSpooling(ResultSpooling.DEFAULT.streamed());
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
