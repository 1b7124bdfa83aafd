package io.shardset.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.catalog.CatalogDatabase;
import io.shardset.catalog.ModelCatalog;
import io.shardset.catalog.ModelDocuments;
import io.shardset.catalog.ProcessRegistry;
import io.shardset.model.CatalogSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.testing.DroppingProxy;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Moves of a model kept in a catalog: the mover waits for every process that serves the model
 * to acknowledge each step, not for a grace period (the tests give it a day's grace, which a
 * file model would wait); a connection opened before the move reads every row and writes where
 * the new version places rows; a process that lost its lease refuses statements, is excluded
 * by the move, and serves again only under the newest version.
 */
class CatalogMoveTest {
  /** A grace no test could wait for: a catalog's moves wait for acknowledgements instead. */
  private static final Duration A_DAY = Duration.ofDays(1);
  private static final String SCHEMA = FamilyShards.SCHEMA;
  private static final int ORDERS = 800;

  @TempDir Path folder;

  @Test void anOpenConnectionFollowsAMoveThatWaitsForItsAcknowledgement() throws Exception {
    final MoveFixture fixture = MoveFixture.h2("catalog-follow", folder, 400, ORDERS);
    fixture.reset();
    final CatalogSpec spec = new CatalogSpec("jdbc:h2:" + folder.resolve("catalog"), "sa", "",
        3_000, 50);
    final Path pointer = intoCatalog(fixture, spec, spec, "pointer.json");
    fixture.readModelFrom(pointer);
    try (Connection old = DriverManager.getConnection("jdbc:shardset:model=" + pointer)) {
      assertEquals(ORDERS, count(old));
      final MoverTest.Events events = new MoverTest.Events(0);
      mover(fixture, pointer, events).apply(
          ReshardPlanner.plan(fixture.model(), MoverTest.addFifth(fixture)));
      MoverTest.assertDone(fixture);
      // ANNOUNCE, SWITCH and FINISH each waited for this process, the only one serving.
      assertEquals(3, events.events.stream()
          .filter(e -> e.endsWith("acknowledged by 1 process")).count(), events.events::toString);
      assertEquals(4, ModelCatalog.of(spec).newestNumber(SCHEMA));

      // The connection opened before the move follows it: it reads every row, and writes
      // where version 4 places rows (s4 among them) without a 40001.
      assertEquals(ORDERS, count(old));
      assertWritesWhereTheyRoute(fixture, old);
      final List<ProcessRegistry.Process> processes =
          ProcessRegistry.of(CatalogDatabase.of(spec)).processes(SCHEMA);
      assertEquals(1, processes.size(), processes::toString);
      assertEquals(4, processes.get(0).runsVersion());
    }
  }

  @Test void aProcessPastItsLeaseIsExcludedAndServesAgainOnlyUnderTheNewestVersion()
      throws Exception {
    PostgresServer.require();
    final MoveFixture fixture = MoveFixture.h2("catalog-lease", folder, 400, ORDERS);
    fixture.reset();
    final String database = PostgresServer.createDatabases("catalease", 1).get(0);
    final CatalogSpec direct = new CatalogSpec(PostgresServer.url(database),
        PostgresServer.USER, "", 2_000, 50);
    try (DroppingProxy proxy = DroppingProxy.start(5432)) {
      final CatalogSpec proxied = new CatalogSpec(direct.jdbcUrl().replace(":5432/",
          ":" + proxy.port() + "/"), direct.user(), "", direct.leaseMillis(),
          direct.pollMillis());
      final Path pointer = intoCatalog(fixture, direct, direct, "pointer.json");
      final Path served = intoCatalog(fixture, direct, proxied, "served.json");
      fixture.readModelFrom(pointer);
      try (Connection old = DriverManager.getConnection("jdbc:shardset:model=" + served)) {
        assertEquals(ORDERS, count(old));

        // The network loses the catalog: past its lease, the process refuses statements.
        proxy.drop(true);
        final SQLException refused = awaitRefusal(old);
        assertEquals("08006", refused.getSQLState());
        assertTrue(refused.getMessage().startsWith("this process lost its lease on schema 'S'"
            + " of the catalog " + proxied.jdbcUrl() + " as postgres: it has not reached the"
            + " catalog for "), refused.getMessage());

        // A move goes on without it, excluding it once its lease ran out.
        final MoverTest.Events events = new MoverTest.Events(0);
        mover(fixture, pointer, events).apply(
            ReshardPlanner.plan(fixture.model(), MoverTest.addFifth(fixture)));
        MoverTest.assertDone(fixture);
        assertTrue(events.events.stream().anyMatch(e -> e.startsWith("ANNOUNCE process ")
            && e.contains(" excluded: its lease ran out ")), events.events::toString);
        // It has not reached the catalog: it still refuses.
        assertEquals("08006", assertThrows(SQLException.class, () -> count(old)).getSQLState());

        // Back on the network, it registers again, reads version 4, and serves under it.
        proxy.drop(false);
        awaitServing(old);
        final List<ProcessRegistry.Process> processes =
            ProcessRegistry.of(CatalogDatabase.of(direct)).processes(SCHEMA);
        assertEquals(1, processes.size(), processes::toString);
        assertEquals(4, processes.get(0).runsVersion());
        assertWritesWhereTheyRoute(fixture, old);
      }
    }
  }

  /**
   * Puts the fixture's model into the catalog {@code writeTo} (once) and writes a file that
   * points at it as {@code pointsAt} names it.
   */
  private Path intoCatalog(MoveFixture fixture, CatalogSpec writeTo, CatalogSpec pointsAt,
      String name) throws Exception {
    final ModelCatalog catalog = ModelCatalog.of(writeTo);
    catalog.create();
    if (catalog.newestNumber(SCHEMA) == 0) {
      catalog.publish(SCHEMA, 0, ModelDocuments.shardSetSchemas(
          Files.readString(fixture.modelFile()), "model.json").get(0).operand(), "test");
    }
    final Path pointer = folder.resolve(name);
    Files.writeString(pointer, ModelDocuments.pointerFile(SCHEMA, pointsAt));
    return pointer;
  }

  private static Mover mover(MoveFixture fixture, Path pointer, MoveListener events) {
    return new Mover(pointer, SCHEMA, new Mover.Settings(A_DAY, Duration.ofSeconds(30), 1000),
        events, fixture.preparer(), ShardSetRuntime.get().topology());
  }

  /** Writes an order for each of 100 customers and finds each on the shard it routes to. */
  private static void assertWritesWhereTheyRoute(MoveFixture fixture, Connection c)
      throws SQLException {
    final ShardSetModel model = fixture.model();
    final RowOwners owners = RowOwners.of(ShardSetRuntime.get().schema(model)
        .table("ORDERS").sharded(), model);
    int onTheNewShard = 0;
    try (PreparedStatement insert = c.prepareStatement(
        "INSERT INTO ORDERS (ORDER_ID, CUSTOMER_ID, AMOUNT) VALUES (?, ?, 1)")) {
      for (int customer = 0; customer < 100; customer++) {
        insert.setInt(1, 1_000_000 + customer);
        insert.setInt(2, customer);
        assertEquals(1, insert.executeUpdate());
      }
    }
    for (int customer = 0; customer < 100; customer++) {
      final String owner = owners.ownerOf(List.of(customer));
      onTheNewShard += owner.equals("s4") ? 1 : 0;
      try (Connection shard = fixture.connect(Integer.parseInt(owner.substring(1)));
           Statement s = shard.createStatement();
           ResultSet rs = s.executeQuery("SELECT CUSTOMER_ID FROM ORDERS WHERE ORDER_ID = "
               + (1_000_000 + customer))) {
        assertTrue(rs.next(), "order of customer " + customer + " not on " + owner);
        assertEquals(customer, rs.getInt(1));
      }
    }
    assertTrue(onTheNewShard > 0, "no customer of the 100 routes to s4");
    assertEquals(ORDERS + 100, count(c));
  }

  private static long count(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ORDERS")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Runs a statement until the process refuses it, for at most a minute. */
  private static SQLException awaitRefusal(Connection c) {
    final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (true) {
      try {
        assertEquals(ORDERS, count(c));
      } catch (SQLException e) {
        return e;
      }
      assertTrue(System.nanoTime() < deadline, "the process still serves a minute later");
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  /** Runs a statement until the process serves it, for at most a minute. */
  private static void awaitServing(Connection c) {
    final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (true) {
      try {
        assertEquals(ORDERS, count(c));
        return;
      } catch (SQLException e) {
        assertEquals("08006", e.getSQLState(), e::getMessage);
        assertTrue(System.nanoTime() < deadline, "still refused a minute later: " + e);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }
}
