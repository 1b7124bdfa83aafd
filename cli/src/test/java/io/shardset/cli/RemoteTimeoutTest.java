package io.shardset.cli;

import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.cli.server.ResultSpooling;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.testing.BackgroundQuery;
import io.shardset.testing.PostgresItems;
import io.shardset.testing.PostgresServer;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaSqlException;
import org.apache.calcite.avatica.remote.Driver;

import org.checkerframework.checker.nullness.qual.Nullable;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.shardset.testing.PostgresItems.awaitValue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Query timeouts and cancels of remote statements, on four PostgreSQL shards one or all of
 * which keep the query waiting for a lock: a cancel by number from a second connection
 * ({@code SHARDSET.CANCEL}), the server's {@code --statement-timeout} for any Avatica client,
 * and a {@code jdbc:shardset:remote:} client's own {@code setQueryTimeout}, which Avatica's
 * protocol does not carry. A timeout reaches the client as SQLState 57014; either way every
 * shard statement ends.
 */
class RemoteTimeoutTest {
  /** The application name of the connection that holds the lock. */
  private static final String LOCK_HOLDER = "shardset-test-lock";

  private static PostgresItems items;
  private static List<String> databases = List.of();

  @TempDir Path folder;
  private Path modelFile;
  private ShardSetServer server;
  private final List<Connection> lockHolders = new ArrayList<>();

  @BeforeAll static void createShards() throws SQLException {
    // More rows than the first frame and a merge's buffers hold.
    items = PostgresItems.create("timeout", 5_000);
    databases = items.databases();
  }

  @AfterAll static void dropShards() throws SQLException {
    items.drop();
  }

  @BeforeEach void writeModel() throws Exception {
    modelFile = folder.resolve("model.json");
    Files.writeString(modelFile, items.model(""), StandardCharsets.UTF_8);
  }

  /** Locks s3's ITEMS, so that a query of it waits. */
  private void lockS3() throws SQLException {
    lock(3);
  }

  /** Locks the ITEMS of the shards numbered, so that a query of them waits. */
  private void lock(int... shards) throws SQLException {
    for (int shard : shards) {
      final Connection holder = DriverManager.getConnection(
          PostgresServer.url(databases.get(shard)), PostgresServer.USER, "");
      lockHolders.add(holder);
      holder.setClientInfo("ApplicationName", LOCK_HOLDER);
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement()) {
        lock.execute("LOCK TABLE items IN ACCESS EXCLUSIVE MODE");
      }
    }
  }

  @AfterEach void stopServerAndUnlock() throws SQLException {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      releaseLock();
    }
  }

  private void releaseLock() throws SQLException {
    for (Connection holder : lockHolders) {
      holder.rollback();
      holder.close();
    }
    lockHolders.clear();
  }

  /** A plain Avatica client cannot send a timeout: the server's applies to it. */
  @Test void theServersStatementTimeoutStopsAPlainAvaticaClientsStatement() throws Exception {
    server = ShardSetServer.start(settings().withStatementTimeout(Duration.ofSeconds(1)));
    lockS3();
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      assertTimesOut(s, "query timeout of 1 s elapsed");
    }
  }

  /** With every shard's table locked, the timeout must stop all four shard statements. */
  @Test void theServersStatementTimeoutStopsTheStatementOnEveryShard() throws Exception {
    server = ShardSetServer.start(settings().withStatementTimeout(Duration.ofSeconds(1)));
    lock(0, 1, 2, 3);
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      assertTimesOut(s, "query timeout of 1 s elapsed");
    }
  }

  /**
   * A second connection finds a statement that waits on all four shards in
   * SHARDSET.STATEMENTS and cancels it by its number: every shard statement ends while the
   * locks are still held, and the first client gets the cancel as its error.
   */
  @Test void cancelByNumberFromASecondConnectionStopsEveryShardsStatement() throws Exception {
    server = ShardSetServer.start(settings());
    lock(0, 1, 2, 3);
    final ExecutorService executor = Executors.newSingleThreadExecutor();
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement();
         Connection second = DriverManager.getConnection(server.jdbcUrl());
         Statement control = second.createStatement()) {
      final Future<Throwable> query =
          BackgroundQuery.readAll(executor, s, "SELECT * FROM ITEMS WHERE V >= 0");
      awaitValue(4, RemoteTimeoutTest::lockWaiters);
      final long id;
      try (ResultSet rs = control.executeQuery("SELECT ID, SHARDS FROM SHARDSET.STATEMENTS"
          + " WHERE SQL_TEXT = 'SELECT * FROM ITEMS WHERE V >= 0'")) {
        assertTrue(rs.next());
        id = rs.getLong(1);
        assertEquals("s0,s1,s2,s3", rs.getString(2));
      }
      try (ResultSet rs = control.executeQuery("SELECT SHARDSET.CANCEL(" + id + ")")) {
        assertTrue(rs.next());
        assertTrue(rs.getBoolean(1));
      }
      final Throwable thrown = query.get(20, TimeUnit.SECONDS);
      assertNotNull(thrown, "the query was not canceled");
      assertTrue(String.valueOf(thrown.getMessage()).contains("cancel"), thrown.toString());
      // The locks are still held: only a cancel ends the shard statements.
      awaitValue(0, RemoteTimeoutTest::lockWaiters);
      awaitValue(0, RemoteTimeoutTest::busySessions);
      try (ResultSet rs = control.executeQuery("SELECT COUNT(*) FROM SHARDSET.STATEMENTS"
          + " WHERE ID = " + id)) {
        assertTrue(rs.next());
        assertEquals(0, rs.getInt(1));
      }
    } finally {
      executor.shutdownNow();
    }
  }

  /**
   * {@code Statement.cancel()} on a {@code jdbc:shardset:remote:} statement that waits on all
   * four shards stops every shard statement on the server, and the statement runs again.
   */
  @Test void aShardSetRemoteClientsCancelStopsEveryShardsStatement() throws Exception {
    server = ShardSetServer.start(settings());
    lock(0, 1, 2, 3);
    final ExecutorService executor = Executors.newSingleThreadExecutor();
    try (Connection c = DriverManager.getConnection(shardSetRemoteUrl());
         Statement s = c.createStatement()) {
      final Future<Throwable> query = BackgroundQuery.readAll(executor, s, "SELECT * FROM ITEMS");
      awaitValue(4, RemoteTimeoutTest::lockWaiters);
      s.cancel();
      final Throwable thrown = query.get(20, TimeUnit.SECONDS);
      final SQLException e = assertInstanceOf(SQLException.class, thrown);
      assertEquals("57014", e.getSQLState());
      assertEquals("Statement canceled; the statement was closed on the server",
          e.getMessage());
      // The locks are still held: only the cancel ends the shard statements.
      awaitValue(0, RemoteTimeoutTest::lockWaiters);
      awaitValue(0, RemoteTimeoutTest::busySessions);
      releaseLock();
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ITEMS")) {
        assertTrue(rs.next());
        assertEquals(4L * items.rowsPerShard(), rs.getLong(1));
      }
    } finally {
      executor.shutdownNow();
    }
  }

  /**
   * A result streamed at its client's pace ({@code --result-spool-limit 0}): the time the client
   * takes over the rows counts, and the fetch after the timeout fails.
   */
  @Test void theServersStatementTimeoutStopsAStatementWhoseRowsAreReadSlowly()
      throws Exception {
    server = ShardSetServer.start(settings().withStatementTimeout(Duration.ofSeconds(1))
        .withSpooling(ResultSpooling.DEFAULT.streamed()));
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      assertSlowReadTimesOut(s, "query timeout of 1 s elapsed");
    }
  }

  /**
   * A result read ahead of its client (the default) ended on the shards before the client read
   * on: a slow client does not make it time out.
   */
  @Test void aResultReadAheadIsNotStoppedByItsSlowClient() throws Exception {
    server = ShardSetServer.start(settings().withStatementTimeout(Duration.ofSeconds(1)));
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT * FROM ITEMS ORDER BY V")) {
      final long started = System.nanoTime();
      assertTrue(rs.next());
      final long end = started + TimeUnit.MILLISECONDS.toNanos(1_100);
      for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
      long rows = 1;
      while (rs.next()) {
        rows++;
      }
      assertEquals(4L * items.rowsPerShard(), rows);
    }
  }

  @Test void aShardSetRemoteClientsQueryTimeoutStopsAStatementWhoseRowsAreReadSlowly()
      throws Exception {
    server = ShardSetServer.start(settings().withSpooling(ResultSpooling.DEFAULT.streamed()));
    try (Connection c = DriverManager.getConnection(shardSetRemoteUrl());
         Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      // ShardSet's driver throws what JDBC promises, where Avatica's throws its unchecked one.
      assertInstanceOf(SQLException.class, assertSlowReadTimesOut(s,
          "query timeout of 1 s elapsed; the statement was closed on the server"));
    }
  }

  /**
   * Reads a merge's first row, waits until the 1 s timeout is up and reads on; expects the
   * timeout's SQLState and {@code message}, and every shard statement to end; returns the
   * error.
   */
  private static Exception assertSlowReadTimesOut(Statement s, String message)
      throws Exception {
    final Exception e = assertThrows(Exception.class, () -> {
      try (ResultSet rs = s.executeQuery("SELECT * FROM ITEMS ORDER BY V")) {
        final long started = System.nanoTime();
        assertTrue(rs.next());
        // The statement's time counts from before executeQuery returned.
        final long end = started + TimeUnit.MILLISECONDS.toNanos(1_100);
        for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
          LockSupport.parkNanos(left);
        }
        while (rs.next()) {
          rs.getObject(1);
        }
      }
    });
    assertTimeout(e, message);
    awaitValue(0, RemoteTimeoutTest::busySessions);
    return e;
  }

  /**
   * Expects a timeout's error: SQLState 57014 and {@code message}. A SQLException, except
   * that a plain Avatica client's {@code ResultSet.next()} throws the error of a fetch as
   * Avatica's unchecked exception. Avatica's client words the message around it; ShardSet's
   * gives it as it is.
   */
  private static void assertTimeout(@Nullable Throwable thrown, String message) {
    assertNotNull(thrown, "the query did not fail");
    final String state;
    if (thrown instanceof SQLException e) {
      state = e.getSQLState();
    } else if (thrown instanceof AvaticaClientRuntimeException e) {
      state = e.getSqlState();
    } else {
      throw new AssertionError("not a query's error: " + thrown, thrown);
    }
    assertEquals("57014", state, thrown.toString());
    if (thrown instanceof AvaticaSqlException || thrown instanceof AvaticaClientRuntimeException) {
      assertTrue(String.valueOf(thrown.getMessage()).contains(message), thrown.toString());
    } else {
      assertEquals(message, thrown.getMessage());
    }
  }

  private String shardSetRemoteUrl() {
    return server.jdbcUrl().replace("jdbc:avatica:remote:",
        ShardSetRemoteDriver.CONNECT_STRING_PREFIX);
  }

  /**
   * {@code jdbc:shardset:remote:} makes the server stop a statement whose own timeout is up;
   * the statement then runs again.
   */
  @Test void aShardSetRemoteClientsQueryTimeoutStopsTheStatementOnTheServer() throws Exception {
    server = ShardSetServer.start(settings());
    lockS3();
    try (Connection c = DriverManager.getConnection(shardSetRemoteUrl());
         Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      assertTimesOut(s, "query timeout of 1 s elapsed; the statement was closed on the server");
      releaseLock();
      // Time enough for the server to plan a new query: the client's time counts planning.
      s.setQueryTimeout(30);
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ITEMS")) {
        assertTrue(rs.next());
        assertEquals(4L * items.rowsPerShard(), rs.getLong(1));
      }
    }
  }

  /**
   * Runs a query that waits for s3's lock; expects SQLState 57014 and {@code message} in the
   * error, and s3's statement, and every other shard statement, to end.
   */
  private static void assertTimesOut(Statement s, String message) throws Exception {
    final ExecutorService executor = Executors.newSingleThreadExecutor();
    try {
      final Future<Throwable> query = BackgroundQuery.readAll(executor, s, "SELECT * FROM ITEMS");
      // Without a timeout the query waits for the lock for as long as the test holds it.
      final Throwable thrown = query.get(20, TimeUnit.SECONDS);
      assertTimeout(thrown, message);
    } finally {
      executor.shutdownNow();
    }
    awaitValue(0, RemoteTimeoutTest::lockWaiters);
    try {
      awaitValue(0, RemoteTimeoutTest::busySessions);
    } catch (AssertionError e) {
      try (Connection c = PostgresServer.admin(); Statement st = c.createStatement();
           ResultSet rs = st.executeQuery("SELECT datname, state, application_name, query"
               + " FROM pg_stat_activity WHERE datname IN ('" + String.join("', '", databases)
               + "')")) {
        while (rs.next()) {
          e.addSuppressed(new AssertionError(rs.getString(1) + " " + rs.getString(2) + " "
              + rs.getString(3) + " " + rs.getString(4)));
        }
      }
      throw e;
    }
  }

  /** Shard statements waiting for the test's lock. */
  private static int lockWaiters() {
    return count("state = 'active' AND wait_event_type = 'Lock'");
  }

  /** Shard sessions running a statement or inside a transaction, the lock's holder aside. */
  private static int busySessions() {
    return count("state IN ('active', 'idle in transaction') AND application_name <> '"
        + LOCK_HOLDER + "'");
  }

  private static int count(String condition) {
    try (Connection c = PostgresServer.admin(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pg_stat_activity WHERE "
             + condition + " AND pid <> pg_backend_pid()"
             + " AND datname IN ('" + String.join("', '", databases) + "')")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private ServerSettings settings() {
    return ServerSettings.loopback(modelFile, 0, Driver.Serialization.PROTOBUF);
  }
}
