package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardMetrics;
import io.shardset.execution.ShardPools;
import io.shardset.testing.BackgroundQuery;
import io.shardset.testing.Connector;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import io.micrometer.core.instrument.Timer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
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
 *
 * <p>Tests count the connections of the shards' pools, so each starts with none: every test
 * connects through {@code jdbc:shardset:}, whose connection closes its model's pools when it
 * closes ({@code jdbc:calcite:} would leave them open until its schema is garbage, for the
 * next test to find), and each test's model keeps its decision log in a folder of its own,
 * so that no log a write of an earlier test created makes the transaction coordinator
 * recover at start, on a connection of each shard's pool, while the test runs.
 */
class PostgresFailureTest {
  /** Rows of BIG on each shard. */
  private static final int BIG_ROWS = 20_000;

  /** The application name of the connections that hold the tests' locks. */
  private static final String LOCK_HOLDER = "shardset-test-lock";

  private static List<String> databases = List.of();
  /** Where this test's models keep their decision log, which only a write creates. */
  @TempDir Path logFolder;
  private String model;
  /**
   * The model of the timeout tests, whose pools are not the other tests': canceled statements
   * leave more than one connection in a pool, which a test that takes a shard down counts on
   * not to find.
   */
  private String timeoutModel;
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
        // More rows than a merge buffers: its shard statements are still open after a row.
        s.execute("CREATE TABLE big (id BIGINT PRIMARY KEY, v INT)");
        s.execute("INSERT INTO big SELECT " + i * BIG_ROWS + " + g, g % 977 FROM"
            + " generate_series(0, " + (BIG_ROWS - 1) + ") g");
      }
    }
  }

  @BeforeEach void createModels() {
    model = model(shardsJson(1000));
    timeoutModel = model(shardsJson(2000));
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
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final Future<Throwable> query = runBlockedScan(s, "SELECT * FROM ITEMS", databases);
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
    ShardMetricsTest.recording();
    final double timeoutsBefore = timedOutShardStatements();
    try (Connection c = Connector.SHARDSET.open(timeoutModel); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      // ShardSet's watch or the driver's own timer, whichever comes first, stops the shard.
      assertQueryTimeout(runBlockedScan(s, "SELECT * FROM ITEMS", databases)
          .get(30, TimeUnit.SECONDS),
          "shard 's[0-3]' failed: query timeout of 1 s elapsed"
          + "( \\(ERROR: canceling statement due to user request\\))?");
      awaitZero(PostgresFailureTest::blockedBackends);
      assertEquals(0, checkedOutConnections(c));
    }
    // The shard that failed first counts a timeout; the others, stopped by it, may too.
    assertTrue(timedOutShardStatements() > timeoutsBefore);
  }

  /** The shard statements the runtime's meters count as timed out, on any shard. */
  private static double timedOutShardStatements() {
    return ShardSetRuntime.get().execution().scanServices().metrics().registry()
        .find(ShardMetrics.STATEMENTS).tag("outcome", "timeout").timers().stream()
        .mapToDouble(Timer::count).sum();
  }

  /** A merge waits for the first row of every shard: one slow shard holds it back. */
  @Test void queryTimeoutStopsAMergeWaitingForItsSlowestShard() throws Exception {
    try (Connection c = Connector.SHARDSET.open(timeoutModel); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      assertQueryTimeout(runBlockedScan(s, "SELECT * FROM ITEMS ORDER BY V",
          databases.subList(3, 4)).get(30, TimeUnit.SECONDS),
          "shard 's3' failed: query timeout of 1 s elapsed"
          + "( \\(ERROR: canceling statement due to user request\\))?");
      awaitZero(PostgresFailureTest::blockedBackends);
      awaitZero(PostgresFailureTest::busyBackends);
      assertEquals(0, checkedOutConnections(c));
    }
  }

  /**
   * The time a client takes over the rows counts: a merge whose shards answered at once, read
   * slowly, fails once the timeout is up, and its shard statements, which wait for the client
   * with their results half read, end.
   */
  @Test void queryTimeoutStopsAMergeWhileItStreams() throws Exception {
    try (Connection c = Connector.SHARDSET.open(timeoutModel); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      final SQLException e = assertThrows(SQLException.class, () -> {
        try (ResultSet rs = s.executeQuery("SELECT * FROM BIG ORDER BY V")) {
          final long started = System.nanoTime();
          assertTrue(rs.next());
          assertEquals(4, busyBackends(), "the shards' statements wait for the client");
          awaitTimeout(started);
          while (rs.next()) {
            rs.getObject(1);
          }
        }
      });
      assertQueryTimeout(e, "query timeout of 1 s elapsed");
      awaitZero(PostgresFailureTest::busyBackends);
      assertEquals(0, checkedOutConnections(c));
    }
  }

  /**
   * A statement whose rows are first asked for once its timeout is up fails at once, and says
   * which timeout it set, in the unit it set it: not the time that was left of it.
   */
  @Test void queryTimeoutNamesTheTimeoutTheStatementSet() throws Exception {
    try (Connection c = Connector.SHARDSET.open(timeoutModel); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      try (ResultSet rs = s.executeQuery("SELECT * FROM ITEMS ORDER BY ID")) {
        awaitTimeout(System.nanoTime());
        assertQueryTimeout(assertThrows(SQLException.class, rs::next),
            "query timeout of 1 s elapsed");
      }
      // The statement runs again, within its time.
      assertEquals(4, count(s, "SELECT COUNT(*) FROM ITEMS"));
      awaitZero(PostgresFailureTest::busyBackends);
      assertEquals(0, checkedOutConnections(c));
    }
  }

  @Test void shardStatementTimeoutFromTheModel() throws Exception {
    final String withTimeout = model(shardsJson(1000).replace("\"connectTimeout\": 1000",
        "\"connectTimeout\": 1000, \"statementTimeout\": 500"));
    try (Connection c = Connector.SHARDSET.open(withTimeout); Statement s = c.createStatement()) {
      final Throwable thrown =
          runBlockedScan(s, "SELECT * FROM ITEMS", databases).get(30, TimeUnit.SECONDS);
      assertNotNull(thrown, "the query did not fail");
      assertTrue(messages(thrown).matches("(?s).*shard 's[0-3]' failed: statement timeout of"
          + " 500 ms elapsed \\(ERROR: canceling statement due to user request\\).*"),
          messages(thrown));
      awaitZero(PostgresFailureTest::blockedBackends);
      assertEquals(0, checkedOutConnections(c));
    }
  }

  /**
   * Expects the query timeout's SQLException: SQLState 57014 and a message that contains a
   * match of {@code message} (a regex), after the statement's words when it failed executing.
   */
  private static void assertQueryTimeout(Throwable thrown, String message) {
    assertNotNull(thrown, "the query did not fail");
    if (!(thrown instanceof SQLException e)) {
      throw new AssertionError("not a SQLException: " + messages(thrown), thrown);
    }
    assertEquals("57014", e.getSQLState(), messages(e));
    assertTrue(String.valueOf(e.getMessage())
        .matches("(?s)(Error 0 \\(57014\\) : Error while executing SQL \"[^\"]*\": )?"
            + message + "(\n.*)?"),
        messages(e));
  }

  /**
   * Waits until a 1 s timeout that started before {@code started} (nanoTime) is up: the
   * statement's time counts from its execution, after its planning, so from before
   * {@code executeQuery} returned.
   */
  private static void awaitTimeout(long started) {
    final long end = started + TimeUnit.MILLISECONDS.toNanos(1_100);
    for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }

  @Test void downShardIsNamedAndComesBack() throws Exception {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      assertEquals(4, count(s, "SELECT COUNT(*) FROM ITEMS"));
      takeDown(databases.get(2));
      final long start = System.nanoTime();
      final SQLException e = assertThrows(SQLException.class,
          () -> count(s, "SELECT COUNT(*) FROM ITEMS"));
      System.out.printf(Locale.ROOT,
          "down shard: query failed after %d ms (connectTimeout 1000 ms)%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      assertTrue(messages(e).contains("shard 's2' failed: "), messages(e));
      // The pool's connections are gone now: the next query waits for a new one, in vain.
      final long again = System.nanoTime();
      final SQLException refused = assertThrows(SQLException.class,
          () -> count(s, "SELECT COUNT(*) FROM ITEMS"));
      System.out.printf(Locale.ROOT, "down shard: next query failed after %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - again));
      assertTrue(messages(refused).contains("shard 's2' failed: shardset-s2 - Connection is not"
          + " available, request timed out after"), messages(refused));
      assertTrue(messages(refused).contains("last connection failure: FATAL: database \""
          + databases.get(2) + "\" is not currently accepting connections"), messages(refused));
      // Now the shard is down: the next query fails at once, with what the attempt met.
      final SQLException down = assertThrows(SQLException.class,
          () -> count(s, "SELECT COUNT(*) FROM ITEMS"));
      assertTrue(messages(down).contains("shard 's2' failed: it is down: the last attempt to"
          + " connect, "), messages(down));
      assertTrue(messages(down).contains("is not currently accepting connections"),
          messages(down));
      assertEquals("08001", down.getSQLState());
      // A query pruned away from the shard keeps working.
      assertEquals(1, count(s, "SELECT COUNT(*) FROM ITEMS WHERE ID < 100"));
      // A new connection reuses the layout read before the shard went down.
      try (Connection fresh = Connector.SHARDSET.open(model);
           Statement t = fresh.createStatement()) {
        assertEquals(1, count(t, "SELECT COUNT(*) FROM ITEMS WHERE ID = 301"));
      }
      allowConnections(databases.get(2), true);
      // A probe in the background finds it up again; no statement waits for that.
      final ShardEndpoint s2 = ShardFixture.schema(c).table("ITEMS").site(2).endpoint();
      awaitValue(0, () -> ShardPools.isDown(s2) ? 1 : 0);
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
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
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

  /**
   * Locks ITEMS on the shards of {@code locked}, starts {@code sql} and returns once the
   * statements of those shards wait for the lock.
   */
  private Future<Throwable> runBlockedScan(Statement s, String sql, List<String> locked)
      throws Exception {
    for (String database : locked) {
      final Connection holder = DriverManager.getConnection(PostgresServer.url(database),
          PostgresServer.USER, "");
      holder.setClientInfo("ApplicationName", LOCK_HOLDER);
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement()) {
        lock.execute("LOCK TABLE items IN ACCESS EXCLUSIVE MODE");
      }
      lockHolders.add(holder);
    }
    final ExecutorService executor = Executors.newSingleThreadExecutor();
    final Future<Throwable> result = BackgroundQuery.readAll(executor, s, sql);
    executor.shutdown();
    awaitValue(locked.size(), PostgresFailureTest::blockedBackends);
    return result;
  }

  /**
   * Shard statements of this test's databases that run or hold a result open: active, or idle
   * in the transaction a streamed result needs.
   */
  private static int busyBackends() {
    try (Connection c = PostgresServer.admin(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pg_stat_activity"
             + " WHERE state IN ('active', 'idle in transaction') AND pid <> pg_backend_pid()"
             + " AND application_name <> '" + LOCK_HOLDER + "'"
             + " AND datname IN ('" + String.join("', '", databases) + "')")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
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

  /** Polls the state until it shows the value, for at most 20 s. */
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

  private String model(String shardsJson) {
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + ShardFixture.SCHEMA + "\","
        + " \"schemas\": [{\"name\": \"" + ShardFixture.SCHEMA + "\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {"
        + "\"shards\": [" + shardsJson + "],"
        + " \"transactions\": {\"log\": \"" + logFolder + "\"},"
        + " \"tables\": ["
        + "{\"name\": \"ITEMS\", \"physicalName\": \"items\", \"method\": \"range\","
        + " \"shardKey\": \"ID\", \"shards\": [\"s0\", \"s1\", \"s2\", \"s3\"], \"ranges\": ["
        + "{\"shard\": \"s0\", \"to\": 100}, {\"shard\": \"s1\", \"from\": 100, \"to\": 200},"
        + " {\"shard\": \"s2\", \"from\": 200, \"to\": 300}, {\"shard\": \"s3\", \"from\": 300}]},"
        + "{\"name\": \"BIG\", \"physicalName\": \"big\", \"method\": \"range\","
        + " \"shardKey\": \"ID\", \"shards\": [\"s0\", \"s1\", \"s2\", \"s3\"], \"ranges\": ["
        + "{\"shard\": \"s0\", \"to\": " + BIG_ROWS + "}, {\"shard\": \"s1\", \"from\": "
        + BIG_ROWS + ", \"to\": " + 2 * BIG_ROWS + "}, {\"shard\": \"s2\", \"from\": "
        + 2 * BIG_ROWS + ", \"to\": " + 3 * BIG_ROWS + "}, {\"shard\": \"s3\", \"from\": "
        + 3 * BIG_ROWS + "}]},"
        + "{\"name\": \"COUNTRIES\", \"physicalName\": \"countries\", \"method\": \"duplicated\","
        + " \"shards\": [\"s0\", \"s1\", \"s2\", \"s3\"]}]}}]}";
  }
}
