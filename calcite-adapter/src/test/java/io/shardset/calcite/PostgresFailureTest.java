package io.shardset.calcite;

import io.shardset.execution.ShardPools;
import io.shardset.testing.Connector;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

import static io.shardset.calcite.ExecutionResourcesTest.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancel, timeouts and shards that are down, on four PostgreSQL shards: statements stop on
 * every shard and give their connections back, a shard that cannot be reached is named, and
 * queries work again once it is back.
 */
class PostgresFailureTest {
  private static List<String> databases = List.of();
  private static String model;
  private final List<Connection> lockHolders = new ArrayList<>();

  @BeforeAll static void createShards() throws SQLException {
    PostgresServer.require();
    databases = PostgresServer.createDatabases("failure", 4);
    for (int i = 0; i < databases.size(); i++) {
      try (Connection c = DriverManager.getConnection(PostgresServer.url(databases.get(i)),
          PostgresServer.USER, "");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, v INT)");
        s.execute("INSERT INTO items VALUES (" + (i * 100 + 1) + ", " + i + ")");
        s.execute("CREATE TABLE countries (code VARCHAR(2) PRIMARY KEY)");
        s.execute("INSERT INTO countries VALUES ('BR'), ('FR')");
      }
    }
    model = model(shardsJson(1000));
  }

  @AfterAll static void dropShards() throws SQLException {
    PostgresServer.drop(databases);
  }

  @AfterEach void releaseLocksAndRestore() throws SQLException {
    for (Connection c : lockHolders) {
      c.rollback();
      c.close();
    }
    lockHolders.clear();
    for (String database : databases) {
      allowConnections(database, true);
      // What a failed write test may have left behind, so that every test starts the same.
      try (Connection c = DriverManager.getConnection(PostgresServer.url(database),
               PostgresServer.USER, "");
           Statement s = c.createStatement()) {
        s.execute("DELETE FROM items WHERE MOD(id, 100) <> 1");
        s.execute("UPDATE items SET v = (id - 1) / 100");
        s.execute("DELETE FROM countries WHERE code NOT IN ('BR', 'FR')");
      }
    }
  }

  @Test void cancelStopsEveryShardStatement() throws Exception {
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement()) {
      final Future<Throwable> query = runBlockedScan(s);
      s.cancel();
      final long canceled = System.nanoTime();
      final Throwable thrown = query.get(30, TimeUnit.SECONDS);
      assertNotNull(thrown, "the query did not fail");
      assertTrue(messages(thrown).contains("Statement canceled"), messages(thrown));
      awaitZero(PostgresFailureTest::blockedBackends);
      System.out.printf(Locale.ROOT, "cancel: shard backends gone %d ms after Statement.cancel()%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - canceled));
      assertEquals(0, checkedOutConnections(c));
    }
  }

  @Test void queryTimeoutStopsEveryShardStatement() throws Exception {
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      // The limit is the time left of the 1 s when the shard scan started.
      assertBlockedScanTimesOut(c, s, "query timeout of \\d+ ms");
    }
  }

  @Test void shardStatementTimeoutFromTheModel() throws Exception {
    final String withTimeout = model(shardsJson(1000).replace("\"connectTimeout\": 1000",
        "\"connectTimeout\": 1000, \"statementTimeout\": 500"));
    try (Connection c = ShardFixture.connect(withTimeout); Statement s = c.createStatement()) {
      assertBlockedScanTimesOut(c, s, "statement timeout of 500 ms");
    }
  }

  /** Runs a blocked scan, expects a shard to report the limit (a regex), and every shard to
   * stop. */
  private void assertBlockedScanTimesOut(Connection c, Statement s, String limit)
      throws Exception {
    final Throwable thrown = runBlockedScan(s).get(30, TimeUnit.SECONDS);
    assertNotNull(thrown, "the query did not fail");
    assertTrue(messages(thrown).matches("(?s).*shard 's[0-3]' failed: " + limit
        + " elapsed \\(ERROR: canceling statement due to user request\\).*"),
        messages(thrown));
    awaitZero(PostgresFailureTest::blockedBackends);
    assertEquals(0, checkedOutConnections(c));
  }

  @Test void downShardIsNamedAndComesBack() throws Exception {
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement()) {
      assertEquals(4, count(s, "SELECT COUNT(*) FROM ITEMS"));
      takeDown(databases.get(2));
      final long start = System.nanoTime();
      final SQLException e = assertThrows(SQLException.class,
          () -> count(s, "SELECT COUNT(*) FROM ITEMS"));
      System.out.printf(Locale.ROOT,
          "down shard: query failed after %d ms (connectTimeout 1000 ms)%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      assertTrue(messages(e).contains("shard 's2' failed: "), messages(e));
      // The pool's connections are gone now: the next query waits for a new one.
      final long again = System.nanoTime();
      final SQLException refused = assertThrows(SQLException.class,
          () -> count(s, "SELECT COUNT(*) FROM ITEMS"));
      System.out.printf(Locale.ROOT, "down shard: next query failed after %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - again));
      assertTrue(messages(refused).contains("shard 's2' failed: shardset-s2 - Connection is not"
          + " available, request timed out after"), messages(refused));
      assertTrue(messages(refused).contains("last connection failure: FATAL: database \""
          + databases.get(2) + "\" is not currently accepting connections"), messages(refused));
      // A query pruned away from the shard keeps working.
      assertEquals(1, count(s, "SELECT COUNT(*) FROM ITEMS WHERE ID < 100"));
      // A new connection reuses the layout read before the shard went down.
      try (Connection fresh = ShardFixture.connect(model);
           Statement t = fresh.createStatement()) {
        assertEquals(1, count(t, "SELECT COUNT(*) FROM ITEMS WHERE ID = 301"));
      }
      allowConnections(databases.get(2), true);
      assertEquals(4, count(s, "SELECT COUNT(*) FROM ITEMS"));
      assertEquals(0, checkedOutConnections(c));
    }
  }

  /**
   * A write reaching a shard that is down fails with one error naming the shard, and leaves
   * nothing on the shards that are up: an INSERT over four shards, an UPDATE of every row, a
   * duplicated table's INSERT.
   */
  @Test void aWriteToADownShardWritesNothingAnywhere() throws Exception {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      assertEquals(4, count(s, "SELECT COUNT(*) FROM ITEMS"));
      takeDown(databases.get(2));
      for (String write : List.of("INSERT INTO ITEMS VALUES (2, 0), (102, 1), (202, 2), (302, 3)",
          "UPDATE ITEMS SET V = V + 10", "INSERT INTO COUNTRIES VALUES ('DE')")) {
        final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(write),
            write);
        assertTrue(messages(e).contains("shard 's2'"), write + ": " + messages(e));
        assertTrue(e.getSQLState() != null && e.getSQLState().startsWith("08"),
            write + ": SQLState " + e.getSQLState() + ", " + messages(e));
      }
      allowConnections(databases.get(2), true);
      assertEquals(List.of("1:0", "101:1", "201:2", "301:3"), itemsOnEachShard());
      assertEquals(8, count(s, "SELECT COUNT(*) FROM COUNTRIES") * 4);
    }
  }

  /**
   * A shard whose connection dies inside a transaction (its backend terminated, as a crash or
   * a failover would) makes the commit fail, naming the shard, and the other shard's rows of
   * the transaction are rolled back with it.
   */
  @Test void aShardLostInsideATransactionRollsBackEveryShard() throws Exception {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(1, s.executeUpdate("INSERT INTO ITEMS VALUES (2, 0)"));
      assertEquals(1, s.executeUpdate("INSERT INTO ITEMS VALUES (202, 2)"));
      try (Connection admin = PostgresServer.admin(); Statement a = admin.createStatement()) {
        a.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
            + databases.get(2) + "' AND state = 'idle in transaction'");
      }
      final SQLException e = assertThrows(SQLException.class, c::commit);
      assertTrue(messages(e).contains("s2"), messages(e));
      c.setAutoCommit(true);
      assertEquals(List.of("1:0", "101:1", "201:2", "301:3"), itemsOnEachShard());
      assertEquals(4, count(s, "SELECT COUNT(*) FROM ITEMS"));
    }
  }

  /** Each shard's ITEMS as id:v, read directly. */
  private static List<String> itemsOnEachShard() throws SQLException {
    final List<String> rows = new ArrayList<>();
    for (String database : databases) {
      try (Connection c = DriverManager.getConnection(PostgresServer.url(database),
               PostgresServer.USER, "");
           Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT id, v FROM items ORDER BY id")) {
        while (rs.next()) {
          rows.add(rs.getLong(1) + ":" + rs.getInt(2));
        }
      }
    }
    return rows;
  }

  @Test void duplicatedTableIsReadFromTheNextShard() throws Exception {
    try (Connection c = ShardFixture.connect(model); Statement s = c.createStatement()) {
      takeDown(databases.get(0));
      assertEquals(2, count(s, "SELECT COUNT(*) FROM COUNTRIES"));
      assertEquals(0, checkedOutConnections(c));
    }
  }

  @Test void unreachableShardWithoutKnownLayoutFailsTheConnection() {
    final String dead = model(shardsJson(1000) + ",\n{\"name\": \"dead\", \"jdbcUrl\":"
        + " \"jdbc:postgresql://127.0.0.1:1/nothing\", \"jdbcUser\": \"postgres\","
        + " \"connectTimeout\": 500}").replace("\"duplicated\", \"shards\": [\"s0\",",
        "\"duplicated\", \"shards\": [\"dead\", \"s0\",");
    final long start = System.nanoTime();
    // Calcite reports a schema that fails to load as an unchecked exception.
    final RuntimeException e =
        assertThrows(RuntimeException.class, () -> ShardFixture.connect(dead));
    System.out.printf(Locale.ROOT,
        "unreachable port: connection failed after %d ms (connectTimeout 500 ms)%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    assertTrue(messages(e).contains("shard 'dead' failed: cannot read the columns of table"
        + " 'COUNTRIES' (shardset-dead - Connection is not available, request timed out after"),
        messages(e));
    assertTrue(messages(e).contains("Connection to 127.0.0.1:1 refused"), messages(e));
  }

  /** Locks the table on every shard, starts a full scan and returns once all four wait. */
  private Future<Throwable> runBlockedScan(Statement s) throws Exception {
    for (String database : databases) {
      final Connection holder = DriverManager.getConnection(PostgresServer.url(database),
          PostgresServer.USER, "");
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement()) {
        lock.execute("LOCK TABLE items IN ACCESS EXCLUSIVE MODE");
      }
      lockHolders.add(holder);
    }
    final ExecutorService executor = Executors.newSingleThreadExecutor();
    final Future<Throwable> result = executor.submit(() -> {
      try (ResultSet rs = s.executeQuery("SELECT * FROM ITEMS")) {
        while (rs.next()) {
          rs.getObject(1);
        }
        return null;
      } catch (Throwable t) {
        return t;
      }
    });
    executor.shutdown();
    awaitValue(4, PostgresFailureTest::blockedBackends);
    return result;
  }

  /** Shard statements of this test's databases now waiting for the test's locks. */
  private static int blockedBackends() {
    try (Connection c = PostgresServer.admin(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pg_stat_activity"
             + " WHERE state = 'active' AND wait_event_type = 'Lock'"
             + " AND datname IN ('" + String.join("', '", databases) + "')")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private static void awaitZero(IntSupplier value) {
    awaitValue(0, value);
  }

  /** Polls the server's state until it shows the value, for at most 20 s. */
  private static void awaitValue(int expected, IntSupplier value) {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    int last;
    while ((last = value.getAsInt()) != expected) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + expected + ", still " + last);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  private static long count(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next());
      return rs.getLong(1);
    }
  }

  private static void takeDown(String database) throws SQLException {
    allowConnections(database, false);
    try (Connection c = PostgresServer.admin(); Statement s = c.createStatement()) {
      s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
          + database + "'");
    }
  }

  private static void allowConnections(String database, boolean allow) throws SQLException {
    try (Connection c = PostgresServer.admin(); Statement s = c.createStatement()) {
      s.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS " + allow);
    }
  }

  private static int checkedOutConnections(Connection c) throws SQLException {
    final ShardTable items = ShardFixture.schema(c).table("ITEMS");
    int active = 0;
    for (int i = 0; i < items.shardCount(); i++) {
      active += ShardPools.activeConnections(items.site(i).endpoint());
    }
    return active;
  }

  private static String shardsJson(int connectTimeout) {
    final List<String> shards = new ArrayList<>();
    for (int i = 0; i < databases.size(); i++) {
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \""
          + PostgresServer.url(databases.get(i)) + "\", \"jdbcUser\": \"postgres\","
          + " \"jdbcSchema\": \"public\", \"connectTimeout\": " + connectTimeout + "}");
    }
    return String.join(",\n", shards);
  }

  private static String model(String shardsJson) {
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + ShardFixture.SCHEMA + "\","
        + " \"schemas\": [{\"name\": \"" + ShardFixture.SCHEMA + "\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {"
        + "\"shards\": [" + shardsJson + "],"
        + " \"tables\": ["
        + "{\"name\": \"ITEMS\", \"physicalName\": \"items\", \"method\": \"range\","
        + " \"shardKey\": \"ID\", \"shards\": [\"s0\", \"s1\", \"s2\", \"s3\"], \"ranges\": ["
        + "{\"shard\": \"s0\", \"to\": 100}, {\"shard\": \"s1\", \"from\": 100, \"to\": 200},"
        + " {\"shard\": \"s2\", \"from\": 200, \"to\": 300}, {\"shard\": \"s3\", \"from\": 300}]},"
        + "{\"name\": \"COUNTRIES\", \"physicalName\": \"countries\", \"method\": \"duplicated\","
        + " \"shards\": [\"s0\", \"s1\", \"s2\", \"s3\"]}]}}]}";
  }
}
