package io.shardset.cli.server.pg;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.testing.BackgroundQuery;
import io.shardset.testing.PostgresItems;
import io.shardset.testing.PostgresServer;

import org.apache.calcite.avatica.remote.Driver;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.shardset.testing.PostgresItems.awaitValue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ending a statement from a PostgreSQL client, on four PostgreSQL shards whose tables are
 * locked so that a query waits on every one: pgJDBC's {@code cancel()} and psql's Ctrl-C
 * (CancelRequests by backend key), {@code SET statement_timeout}, and a client that goes
 * mid-statement. Each ends every shard statement while the locks are still held.
 */
class PgCancelTest {
  private static PostgresItems items;
  private final List<Connection> lockHolders = new ArrayList<>();
  private final ExecutorService executor = Executors.newSingleThreadExecutor();
  @TempDir Path folder;
  private ShardSetServer server;

  @BeforeAll static void createShards() throws SQLException {
    items = PostgresItems.create("pgcancel", 1_000);
  }

  @AfterAll static void dropShards() throws SQLException {
    items.drop();
  }

  @BeforeEach void startAndLock() throws Exception {
    final Path model = folder.resolve("model.json");
    Files.writeString(model, items.model(""), StandardCharsets.UTF_8);
    server = ShardSetServer.start(ServerSettings.loopback(model, 0,
        Driver.Serialization.PROTOBUF).withPgPort(0));
    for (String database : items.databases()) {
      final Connection holder = DriverManager.getConnection(PostgresServer.url(database),
          PostgresServer.USER, "");
      lockHolders.add(holder);
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement()) {
        lock.execute("LOCK TABLE items IN ACCESS EXCLUSIVE MODE");
      }
    }
  }

  @AfterEach void stopAndUnlock() throws SQLException {
    executor.shutdownNow();
    try {
      server.close();
    } finally {
      for (Connection holder : lockHolders) {
        holder.rollback();
        holder.close();
      }
    }
  }

  private Connection pg() throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.pgPort()
        + "/shardset?user=tester");
  }

  @Test void pgjdbcsCancelEndsEveryShardStatement() throws Exception {
    try (Connection c = pg(); Statement s = c.createStatement()) {
      final Future<Throwable> query = BackgroundQuery.readAll(executor, s,
          "SELECT * FROM items");
      awaitValue(4, PgCancelTest::lockWaiters);
      s.cancel();
      final SQLException e = assertInstanceOf(SQLException.class,
          query.get(30, TimeUnit.SECONDS));
      assertEquals("57014", e.getSQLState(), e.getMessage());
      awaitValue(0, PgCancelTest::lockWaiters);
      // The session goes on.
      try (ResultSet rs = s.executeQuery("SELECT 1")) {
        assertTrue(rs.next());
      }
    }
  }

  @Test void psqlsCtrlCEndsEveryShardStatement() throws Exception {
    final Process psql = Psql.start(server.pgPort(), "tester", null, "-c",
        "SELECT count(*) FROM items");
    psql.getOutputStream().close();
    awaitValue(4, PgCancelTest::lockWaiters);
    new ProcessBuilder("kill", "-INT", Long.toString(psql.pid())).start().waitFor();
    assertTrue(psql.waitFor(30, TimeUnit.SECONDS), "psql did not end");
    final String err = new String(psql.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, psql.exitValue(), err);
    assertTrue(err.contains("ERROR:  57014: "), err);
    awaitValue(0, PgCancelTest::lockWaiters);
  }

  @Test void aSessionsStatementTimeoutEndsEveryShardStatement() throws Exception {
    try (Connection c = pg(); Statement s = c.createStatement()) {
      s.execute("SET statement_timeout = '1s'");
      try (ResultSet rs = s.executeQuery("SHOW statement_timeout")) {
        assertTrue(rs.next());
        assertEquals("1s", rs.getString(1));
      }
      final Throwable thrown = BackgroundQuery.readAll(executor, s, "SELECT * FROM items")
          .get(30, TimeUnit.SECONDS);
      final SQLException e = assertInstanceOf(SQLException.class, thrown);
      assertEquals("57014", e.getSQLState(), e.getMessage());
      awaitValue(0, PgCancelTest::lockWaiters);
    }
  }

  @Test void aClientThatGoesMidStatementEndsItsShardStatements() throws Exception {
    final Connection c = pg();
    final Statement s = c.createStatement();
    final Future<Throwable> query = BackgroundQuery.readAll(executor, s, "SELECT * FROM items");
    awaitValue(4, PgCancelTest::lockWaiters);
    c.abort(Runnable::run);
    query.get(30, TimeUnit.SECONDS);
    awaitValue(0, PgCancelTest::lockWaiters);
  }

  /** Shard sessions waiting for the locks. */
  private static int lockWaiters() {
    try (Connection c = PostgresServer.admin(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pg_stat_activity"
             + " WHERE state = 'active' AND wait_event_type = 'Lock' AND datname IN ('"
             + String.join("', '", items.databases()) + "')")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }
}
