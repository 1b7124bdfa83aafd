package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardMetrics;
import io.shardset.execution.ShardPools;
import io.shardset.testing.Connector;
import io.shardset.testing.DroppingProxy;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static io.shardset.testing.PostgresItems.awaitValue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A shard that stops answering costs one connect timeout, once: two PostgreSQL shards, the
 * second behind a TCP proxy that counts every attempt to connect and can refuse connections
 * (a port nothing listens on) or drop everything (a blackhole). After the first statement
 * that needed the down shard failed, statements that reach it fail at once with 08001 naming
 * it, and statements that do not reach it, on open connections and on new ones (whose
 * metadata and row estimates include the down shard), make no attempt to connect to it: the
 * proxy counts none beyond the background probes'. The shard serves again once a probe
 * connects; the metrics show it down meanwhile.
 */
class PostgresDownShardTest {
  private static final int CONNECT_TIMEOUT = 1000;
  private static List<String> databases = List.of();
  @TempDir Path logFolder;
  private DroppingProxy proxy;
  private String model;

  @BeforeAll static void createShards() throws SQLException {
    PostgresServer.require();
    databases = PostgresServer.createDatabases("down_shard", 2);
    for (int i = 0; i < databases.size(); i++) {
      try (Connection c = DriverManager.getConnection(PostgresServer.url(databases.get(i)),
               PostgresServer.USER, "");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, v INT)");
        s.execute("INSERT INTO items SELECT " + i * 100 + " + g, g FROM"
            + " generate_series(0, 99) g");
      }
    }
  }

  @AfterAll static void dropShards() throws SQLException {
    PostgresServer.drop(databases);
  }

  @BeforeEach void startProxy() throws Exception {
    proxy = DroppingProxy.start(5432);
    final String s1 = "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + databases.get(1);
    model = "{\"version\": \"1.0\", \"defaultSchema\": \"" + ShardFixture.SCHEMA + "\","
        + " \"schemas\": [{\"name\": \"" + ShardFixture.SCHEMA + "\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {"
        + "\"shards\": [{\"name\": \"s0\", \"jdbcUrl\": \"" + PostgresServer.url(databases.get(0))
        + "\", \"jdbcUser\": \"postgres\", \"connectTimeout\": " + CONNECT_TIMEOUT + "},"
        + " {\"name\": \"s1\", \"jdbcUrl\": \"" + s1 + "\", \"jdbcUser\": \"postgres\","
        + " \"connectTimeout\": " + CONNECT_TIMEOUT + ", \"socketTimeout\": 3000}],"
        + " \"transactions\": {\"log\": \"" + logFolder + "\"},"
        + " \"tables\": [{\"name\": \"ITEMS\", \"physicalName\": \"items\", \"method\": \"range\","
        + " \"shardKey\": \"ID\", \"ranges\": [{\"shard\": \"s0\", \"to\": 100},"
        + " {\"shard\": \"s1\", \"from\": 100}]}]}}]}";
  }

  @AfterEach void stopProxy() throws Exception {
    proxy.close();
  }

  @Test void aShardThatRefusesCostsOneTimeoutAndTheOthersNone() throws Exception {
    assertDownShardCostsOnce(() -> proxy.refuse(true), () -> proxy.refuse(false));
  }

  @Test void aBlackholedShardCostsOneTimeoutAndTheOthersNone() throws Exception {
    assertDownShardCostsOnce(() -> proxy.drop(true), () -> proxy.drop(false));
  }

  private void assertDownShardCostsOnce(Runnable takeDown, Runnable bringBack)
      throws Exception {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      assertEquals(200, count(s, "SELECT COUNT(*) FROM ITEMS"));
      final ShardEndpoint s1 = ShardFixture.schema(c).table("ITEMS").site(1).endpoint();
      takeDown.run();
      // A connection the pool hands out without checking it (it was used within the last
      // half second) fails as a read does: closed at once, or after the socket timeout when
      // blackholed; then the pool makes a new one, whose attempt fails within the connect
      // timeout, and the shard is down.
      final long start = System.nanoTime();
      int failed = 0;
      while (!ShardPools.isDown(s1)) {
        final SQLException e = assertThrows(SQLException.class,
            () -> count(s, "SELECT COUNT(*) FROM ITEMS"));
        assertTrue(e.getSQLState().startsWith("08"), e.getSQLState() + " " + e.getMessage());
        assertTrue(e.getMessage().contains("shard 's1'"), e.getMessage());
        assertTrue(++failed <= 2, "still not down after " + failed + " failures");
      }
      System.out.printf(Locale.ROOT, "down shard: found down after %d failed queries, %d ms"
          + " (connectTimeout %d ms, socketTimeout 3000 ms)%n", failed,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), CONNECT_TIMEOUT);
      assertEquals(1.0, ShardMetricsTest.recording()
          .get(ShardMetrics.DOWN).tag("shard", "s1").gauge().value());

      // From now on, nothing but the background probes tries to connect to s1.
      final long attempts = proxy.attempts();
      final long probes = ShardPools.probes(s1);
      for (int i = 0; i < 5; i++) {
        final SQLException again = assertThrows(SQLException.class,
            () -> count(s, "SELECT COUNT(*) FROM ITEMS"));
        assertEquals("08001", again.getSQLState(), again.getMessage());
        assertTrue(again.getMessage().contains("shard 's1' failed: it is down: the last attempt"
            + " to connect, "), again.getMessage());
      }
      try (PreparedStatement p = c.prepareStatement("SELECT V FROM ITEMS WHERE ID = ?")) {
        for (int id = 0; id < 20; id++) {
          p.setLong(1, id);
          try (ResultSet rs = p.executeQuery()) {
            assertTrue(rs.next());
            assertEquals(id, rs.getInt(1));
          }
        }
      }
      // A new connection reads the layouts and row estimates of both shards as it plans.
      try (Connection fresh = Connector.SHARDSET.open(model);
           Statement t = fresh.createStatement()) {
        assertEquals(100, count(t, "SELECT COUNT(*) FROM ITEMS WHERE ID < 100"));
        assertEquals(1, count(t, "SELECT COUNT(*) FROM ITEMS, (VALUES 1) AS X(N)"
            + " WHERE ID = 42"));
      }
      assertTrue(proxy.attempts() - attempts <= ShardPools.probes(s1) - probes,
          (proxy.attempts() - attempts) + " attempts to connect to s1, of which "
              + (ShardPools.probes(s1) - probes) + " by probes");

      bringBack.run();
      // The probes' back-off is at most 10 s.
      awaitValue(0, () -> ShardPools.isDown(s1) ? 1 : 0);
      assertEquals(200, count(s, "SELECT COUNT(*) FROM ITEMS"));
      assertEquals(0.0, ShardMetricsTest.recording()
          .get(ShardMetrics.DOWN).tag("shard", "s1").gauge().value());
      assertFalse(ShardPools.isDown(s1));
    }
  }

  private static long count(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next());
      return rs.getLong(1);
    }
  }
}
