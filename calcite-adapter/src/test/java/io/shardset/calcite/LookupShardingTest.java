package io.shardset.calcite;

import io.shardset.model.ModelException;
import io.shardset.routing.LookupRouter;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.shardset.testing.ShardFixture.rows;
import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lookup sharding over four H2 shards, with the directory in a fifth H2 database: pruning
 * counted at the shards, results equal to an unsharded copy, routing at every execution, and
 * a tenant moved while a reader queries it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LookupShardingTest {
  private static final String[] DDL = {
      "CREATE TABLE TENANT_DOCS (DOC_ID INTEGER PRIMARY KEY, TENANT_ID INTEGER NOT NULL,"
          + " TITLE VARCHAR(40) NOT NULL)",
      "CREATE TABLE REGIONS (REGION VARCHAR(8) PRIMARY KEY, NAME VARCHAR(20) NOT NULL)"};
  private static final Set<String> ALL = Set.of("s0", "s1", "s2", "s3");
  private static final int TENANTS = 12;
  private static final int MOVED = 5;

  private String directoryUrl;
  private Connection directory;
  private ShardFixture fixture;
  private String model;
  private Connection connection;
  private int nextDocId = 1;

  private String tables(String directoryExtras) {
    return String.format(Locale.ROOT, """
        "tables": [
          {"name": "TENANT_DOCS", "method": "lookup", "shardKey": ["TENANT_ID"],
           "directory": {"jdbcUrl": "%s", "jdbcUser": "sa", "jdbcPassword": "",
                         "cacheSeconds": 3600%s}},
          {"name": "REGIONS", "method": "duplicated"}]""", directoryUrl,
        directoryExtras);
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    directoryUrl = "jdbc:h2:mem:directory" + System.identityHashCode(this)
        + ";DB_CLOSE_DELAY=-1";
    directory = DriverManager.getConnection(directoryUrl, "sa", "");
    try (Statement s = directory.createStatement()) {
      s.execute("CREATE TABLE SHARD_DIRECTORY (TENANT_ID INTEGER PRIMARY KEY,"
          + " SHARD_NAME VARCHAR(20) NOT NULL)");
      for (int tenant = 1; tenant <= TENANTS; tenant++) {
        s.execute("INSERT INTO SHARD_DIRECTORY VALUES (" + tenant + ", 's"
            + (tenant == MOVED ? 1 : tenant % 4) + "')");
      }
    }
    model = fixture.model(tables(""));
    try (Connection loading = ShardFixture.connect(model)) {
      final List<Object[]> docs = new ArrayList<>();
      for (int tenant = 1; tenant <= TENANTS; tenant++) {
        for (int i = 0; i < 3 + tenant % 4; i++) {
          docs.add(new Object[] {nextDocId++, tenant, "doc " + i + " of tenant " + tenant});
        }
      }
      fixture.load(loading, "TENANT_DOCS", docs);
      fixture.load(loading, "REGIONS", List.<Object[]>of(new Object[] {"EU", "Europe"}));
    }
    connection = openCached();
  }

  @AfterAll void tearDown() throws SQLException {
    connection.close();
    fixture.close();
    directory.close();
  }

  /** A connection with the plan cache: statements differing in key literals share plans. */
  private Connection openCached() throws SQLException {
    return Connector.SHARDSET.open(model);
  }

  private String shardOf(int tenant) throws SQLException {
    try (Statement s = directory.createStatement();
         ResultSet rs = s.executeQuery(
             "SELECT SHARD_NAME FROM SHARD_DIRECTORY WHERE TENANT_ID = " + tenant)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  @Test void pointsAndInListsReachOnlyTheListedShards() throws SQLException {
    assertReached(Set.of(shardOf(3)), "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 3");
    assertReached(new TreeSet<>(List.of(shardOf(3), shardOf(4), shardOf(8))),
        "SELECT * FROM TENANT_DOCS WHERE TENANT_ID IN (3, 4, 8)");
    assertReached(new TreeSet<>(List.of(shardOf(2), shardOf(7))),
        "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 2 OR TENANT_ID = 7");
    assertReached(Set.of(shardOf(6)),
        "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 6 AND TITLE LIKE 'doc 1%'");
  }

  @Test void keysWithoutAnEntryReachNoShard() throws SQLException {
    assertReached(Set.of(), "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 99");
    assertReached(Set.of(shardOf(3)), "SELECT * FROM TENANT_DOCS WHERE TENANT_ID IN (3, 99)");
    assertReached(Set.of(), "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 1 AND TENANT_ID = 2");
  }

  @Test void otherPredicatesReachEveryShard() throws SQLException {
    assertReached(ALL, "SELECT * FROM TENANT_DOCS");
    assertReached(ALL, "SELECT * FROM TENANT_DOCS WHERE TENANT_ID > 10");
    assertReached(ALL, "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 3 OR DOC_ID = 1");
  }

  @Test void parametersRouteThroughTheDirectory() throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = ?")) {
      p.setInt(1, 6);
      assertEquals(Set.of(shardOf(6)), fixture.reached(p));
      p.setString(1, "7");
      assertEquals(Set.of(shardOf(7)), fixture.reached(p));
      p.setLong(1, 99);
      assertEquals(Set.of(), fixture.reached(p));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 3",
      "SELECT * FROM TENANT_DOCS WHERE TENANT_ID IN (1, 2, 3, 99)",
      "SELECT TENANT_ID, COUNT(*) FROM TENANT_DOCS GROUP BY TENANT_ID",
      "SELECT COUNT(*) FROM TENANT_DOCS WHERE TENANT_ID > 4",
      "SELECT d.TITLE, r.NAME FROM TENANT_DOCS d JOIN REGIONS r ON r.REGION = 'EU'"
          + " WHERE d.TENANT_ID = 9"})
  void resultsEqualUnsharded(String sql) throws SQLException {
    final List<String> expected = sorted(fixture.oracleRows(sql));
    assertFalse(expected.isEmpty(), sql);
    assertEquals(expected, sorted(rows(connection, sql)), sql);
  }

  @Test void explainShowsRoutingAtExecution() throws SQLException {
    // The plan cache shares the plan of every tenant; EXPLAIN shows it with the value bound.
    assertEquals("EnumerableShardScan(table=[[S, TENANT_DOCS]], shards=[at execution by"
            + " directory ?0 of 4], sql=[SELECT * FROM \"TENANT_DOCS\" WHERE \"TENANT_ID\" = ?])\n"
            + "?0 = 3\n",
        PlanTest.explain(connection, "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 3"));
    assertEquals("EnumerableShardScan(table=[[S, TENANT_DOCS]], shards=[4 of 4: s0, s1, s2,"
            + " s3], sql=[SELECT * FROM \"TENANT_DOCS\"])\n",
        PlanTest.explain(connection, "SELECT * FROM TENANT_DOCS"));
  }

  @Test void aDirectoryEntryNamingAnUnknownShardIsAnError() throws SQLException {
    try (Statement s = directory.createStatement()) {
      s.execute("INSERT INTO SHARD_DIRECTORY VALUES (77, 's9')");
    }
    try {
      final SQLException e = assertThrows(SQLException.class,
          () -> rows(connection, "SELECT * FROM TENANT_DOCS WHERE TENANT_ID = 77"));
      assertTrue(messages(e).contains("the directory of table TENANT_DOCS places key 77 on"
          + " shard 's9', which does not hold the table; its shards are s0, s1, s2, s3"),
          messages(e));
    } finally {
      try (Statement s = directory.createStatement()) {
        s.execute("DELETE FROM SHARD_DIRECTORY WHERE TENANT_ID = 77");
      }
    }
  }

  @Test void missingDirectoryTableOrColumnsFailAtConnect() throws SQLException {
    assertConnectFails(", \"table\": \"SHARD_DIR\"", "directory.table",
        "Invalid ShardSet model: schema 'S', table 'TENANT_DOCS', field 'directory.table':"
            + " table 'SHARD_DIR' does not exist in the directory database");
    assertConnectFails(", \"keyColumn\": \"TENANT\"", "directory.keyColumn",
        "Invalid ShardSet model: schema 'S', table 'TENANT_DOCS', field 'directory.keyColumn':"
            + " column 'TENANT' does not exist in the directory table; its columns are"
            + " TENANT_ID, SHARD_NAME");
    assertConnectFails(", \"shardColumn\": \"SHARD\"", "directory.shardColumn",
        "Invalid ShardSet model: schema 'S', table 'TENANT_DOCS', field"
            + " 'directory.shardColumn': column 'SHARD' does not exist in the directory table;"
            + " its columns are TENANT_ID, SHARD_NAME");
  }

  private void assertConnectFails(String extras, String field, String message) {
    final Exception e = assertThrows(Exception.class, () -> {
      try (Connection c = ShardFixture.connect(fixture.model(tables(extras)))) {
        c.getMetaData();
      }
    });
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ModelException model) {
        assertEquals(field, model.field());
        assertEquals(message, model.getMessage());
        return;
      }
    }
    throw new AssertionError("no ModelException in " + messages(e), e);
  }

  /**
   * The acceptance test of a tenant move: copy, switch the entry, invalidate the cache, wait
   * for reads routed by the old entry to finish, delete. A reader querying the tenant all
   * along never sees its rows missing or doubled; deleting before switching would be seen.
   */
  @Test void movingATenantWhileAReaderQueriesIt() throws Exception {
    final List<String> mismatches = moveWhileReading(List.of("copy", "switch", "delete"));
    assertEquals(List.of(), mismatches);
    assertEquals(sorted(fixture.oracleRows(tenantQuery())),
        sorted(rows(connection, tenantQuery())));
    // Moving back in the wrong order must be caught by the same reader.
    final List<String> wrongOrder = moveWhileReading(List.of("copy", "delete", "switch"));
    assertFalse(wrongOrder.isEmpty(), "deleting before switching went unnoticed");
    assertTrue(wrongOrder.get(0).contains("got []"), wrongOrder.get(0));
  }

  /** Between copy and delete a full scan sees the moving tenant on both shards. */
  @Test void fullScansSeeAMovingTenantTwiceBetweenCopyAndDelete() throws Exception {
    final String from = shardOf(3);
    final String to = from.equals("s0") ? "s2" : "s0";
    final String count = "SELECT COUNT(*) FROM TENANT_DOCS WHERE TITLE LIKE '% of tenant 3'";
    final String before = rows(connection, count).get(0);
    copy(3, from, to);
    try {
      assertEquals(String.valueOf(2 * Integer.parseInt(before)), rows(connection, count).get(0));
      assertEquals(before, rows(connection, "SELECT COUNT(*) FROM TENANT_DOCS"
          + " WHERE TENANT_ID = 3").get(0));
    } finally {
      delete(3, to);
    }
  }

  private static String tenantQuery() {
    return "SELECT DOC_ID, TENANT_ID, TITLE FROM TENANT_DOCS WHERE TENANT_ID = " + MOVED;
  }

  /**
   * Moves tenant {@link #MOVED} to another shard by the given steps while a reader thread
   * queries it; after each step the mover waits until a read that started after the step has
   * finished, so that the reader sees every intermediate state. Returns the reads that did not
   * match the tenant's rows.
   */
  private List<String> moveWhileReading(List<String> steps) throws Exception {
    final List<String> expected = sorted(fixture.oracleRows(tenantQuery()));
    final List<String> mismatches = new CopyOnWriteArrayList<>();
    final ReadProgress progress = new ReadProgress();
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Thread reader = new Thread(() -> {
      try (Connection c = openCached()) {
        while (!stop.get()) {
          final long read = progress.start();
          final List<String> actual = sorted(rows(c, tenantQuery()));
          if (!actual.equals(expected)) {
            mismatches.add("read " + read + ": expected " + expected + ", got " + actual);
          }
          progress.finish(read);
        }
      } catch (Throwable t) {
        failure.set(t);
        progress.fail();
      }
    }, "tenant-reader");
    reader.start();
    try {
      final String from = shardOf(MOVED);
      final String to = from.equals("s1") ? "s3" : "s1";
      progress.awaitReadStartedAfter(progress.started());
      for (String step : steps) {
        switch (step) {
        case "copy" -> copy(MOVED, from, to);
        case "switch" -> switchEntry(MOVED, to);
        case "delete" -> delete(MOVED, from);
        default -> throw new AssertionError(step);
        }
        // Reads routed by the old entry may still be running; wait until one that started
        // after this step has finished (reads run one after another).
        progress.awaitReadStartedAfter(progress.started());
      }
    } finally {
      stop.set(true);
      reader.join(TimeUnit.SECONDS.toMillis(60));
    }
    if (failure.get() != null) {
      throw new AssertionError("reader failed", failure.get());
    }
    return mismatches;
  }

  /** Counts the reader's reads, so that the mover can wait for a read to start and end. */
  private static final class ReadProgress {
    private long started;
    private long finished;
    private boolean failed;

    synchronized long start() {
      return ++started;
    }

    synchronized long started() {
      return started;
    }

    synchronized void finish(long read) {
      finished = read;
      notifyAll();
    }

    synchronized void fail() {
      failed = true;
      notifyAll();
    }

    /** Waits until read {@code mark + 1}, which started after the caller's mark, finished. */
    synchronized void awaitReadStartedAfter(long mark) throws InterruptedException {
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (finished <= mark && !failed) {
        final long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          throw new AssertionError("the reader made no progress");
        }
        wait(left);
      }
    }
  }

  private void copy(int tenant, String from, String to) throws SQLException {
    try (Connection source = fixture.shards().endpoint(from).connect();
         Connection target = fixture.shards().endpoint(to).connect();
         Statement select = source.createStatement();
         ResultSet rs = select.executeQuery(
             "SELECT DOC_ID, TENANT_ID, TITLE FROM TENANT_DOCS WHERE TENANT_ID = " + tenant);
         PreparedStatement insert = target.prepareStatement(
             "INSERT INTO TENANT_DOCS VALUES (?, ?, ?)")) {
      while (rs.next()) {
        for (int i = 1; i <= 3; i++) {
          insert.setObject(i, rs.getObject(i));
        }
        insert.executeUpdate();
      }
    }
  }

  /** Points the tenant's directory entry at another shard and drops its cached copy. */
  private void switchEntry(int tenant, String to) throws SQLException {
    try (Statement s = directory.createStatement()) {
      s.executeUpdate("UPDATE SHARD_DIRECTORY SET SHARD_NAME = '" + to + "' WHERE TENANT_ID = "
          + tenant);
    }
    router().invalidate(tenant);
  }

  private void delete(int tenant, String from) throws SQLException {
    try (Connection c = fixture.shards().endpoint(from).connect();
         Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM TENANT_DOCS WHERE TENANT_ID = " + tenant);
    }
  }

  private LookupRouter router() throws SQLException {
    try (Connection c = ShardFixture.connect(model)) {
      return (LookupRouter) ShardFixture.schema(c).table("TENANT_DOCS").router();
    }
  }

  private void assertReached(Set<String> expected, String sql) {
    fixture.sql(connection, sql).reaches(expected).returnsUnsharded();
  }

  private static String messages(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append(" | ");
    }
    return b.toString();
  }
}
