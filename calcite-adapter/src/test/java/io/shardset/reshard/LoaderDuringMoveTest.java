package io.shardset.reshard;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardSchemaFactory;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.load.ShardedInserter;
import io.shardset.model.ChunkMapSpec;
import io.shardset.routing.KeyHasher;
import io.shardset.topology.ShardedTable;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A loader that runs while a resharding moves ranges: rows it routed but has not sent yet hold
 * the move back, are routed again when the model changed, and never land where no query
 * looks; a loader that no longer writes to the shards the model names stops.
 */
class LoaderDuringMoveTest {
  private static final Duration SHORT_DRAIN = Duration.ofMillis(100);

  @TempDir Path folder;

  private static Mover mover(MoveFixture fixture, Duration drain, MoveListener listener) {
    return new Mover(fixture.modelFile(), FamilyShards.SCHEMA,
        new Mover.Settings(Duration.ZERO, drain, 100), listener, fixture.preparer(),
        ShardSetRuntime.get().topology());
  }

  /** A schema that follows the fixture's model file, as a connection's does. */
  /**
   * The schemas the running test built: kept reachable until it ends, as a schema holds its
   * model's pools open and the runtime closes them once the schema is garbage, which could
   * happen while a test still writes through one of its tables.
   */
  private static final List<ShardSchema> KEPT = new CopyOnWriteArrayList<>();

  @AfterEach void forgetSchemas() {
    KEPT.clear();
  }

  private static ShardSchema liveSchema(MoveFixture fixture) {
    final ShardSchema schema = (ShardSchema) new ShardSchemaFactory().create(null,
        FamilyShards.SCHEMA, ModelFile.read(fixture.modelFile()).operand(FamilyShards.SCHEMA));
    KEPT.add(schema);
    return schema;
  }

  /** What the mover says when a loader's waiting rows hold it at the announce. */
  private static String heldBack(MoveFixture fixture) {
    return "the model file records the step, but 1 execution of schema 'S' under an older"
        + " version of model file " + fixture.modelFile().toAbsolutePath().normalize()
        + " still runs; resume the move once they finish";
  }

  /** The range of the chunk map that holds a customer, and a customer of another range. */
  private record Keys(ChunkMapSpec range, int moving, int staying) {
    static Keys of(MoveFixture fixture, ShardedTable customers) {
      final List<ChunkMapSpec> chunks = ReshardPlanner.explicitChunkMap(fixture.model());
      final int moving = 1_000_000;
      final ChunkMapSpec range = chunks.stream()
          .filter(c -> c.from() <= hash(customers, moving) && hash(customers, moving) < c.to())
          .findFirst().orElseThrow();
      int staying = moving + 1;
      while (range.from() <= hash(customers, staying) && hash(customers, staying) < range.to()) {
        staying++;
      }
      return new Keys(range, moving, staying);
    }

    private static long hash(ShardedTable customers, int id) {
      return KeyHasher.hash(KeyHasher.keyBytes(customers.keyTypes(), List.of(id)));
    }
  }

  /** A fixture, its live CUSTOMERS table, and the plan that moves one customer's range. */
  private record RangeScenario(MoveFixture fixture, ShardedTable customers, Keys keys,
      String target, ReshardPlan plan) {
    static RangeScenario of(String name, Path folder) throws Exception {
      final MoveFixture fixture = MoveFixture.h2(name, folder, 200, 400);
      fixture.reset();
      final ShardedTable customers = liveSchema(fixture).table("CUSTOMERS").sharded();
      final Keys keys = Keys.of(fixture, customers);
      final String target = keys.range().shard().equals("s0") ? "s1" : "s0";
      return new RangeScenario(fixture, customers, keys, target, ReshardPlanner.plan(
          fixture.model(), new Operation.MoveRange(keys.range().from(), target)));
    }

    /** The shard that holds a customer once the range moved. */
    String ownerOf(int customer) {
      return RowOwners.of(customers, fixture.model()).ownerOf(List.of(customer));
    }
  }

  /**
   * A row routed before the move announced and sent after it is routed again: its range now
   * moves, so it is refused, not written to the shard that gives the range away; a row of a
   * range that stays is written once. Until then the mover cannot take its next step.
   */
  @Test void waitingRowOfAMovingRangeIsRefusedWhenSent() throws Exception {
    final RangeScenario scenario = RangeScenario.of("loader-refused", folder);
    final MoveFixture fixture = scenario.fixture();
    final Keys keys = scenario.keys();
    final ShardedInserter inserter = ShardedInserter.open(scenario.customers(), 1000);
    inserter.insert(keys.moving(), "moving");
    inserter.insert(keys.staying(), "staying");

    final IllegalStateException held = assertThrows(IllegalStateException.class,
        () -> mover(fixture, SHORT_DRAIN, MoveListener.NONE).apply(scenario.plan()));
    assertEquals(heldBack(fixture), held.getMessage());
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, inserter::close);
    assertEquals("table S.CUSTOMERS: key CUSTOMER_ID = " + keys.moving() + " lies in hash"
        + " range [" + keys.range().from() + ", " + keys.range().to() + ") of shardspace"
        + " 'default', which is moving from " + keys.range().shard() + " to "
        + scenario.target()
        + "; load it after the move", refused.getMessage());
    mover(fixture, SHORT_DRAIN, MoveListener.NONE).resume();

    assertEquals(List.of(), shardsHolding(fixture, keys.moving()));
    assertEquals(List.of(scenario.ownerOf(keys.staying())),
        shardsHolding(fixture, keys.staying()));
  }

  /**
   * A row routed before another process moved its range (whose grace this process's loader
   * outlived) is routed again when sent, and written once, on the range's new owner.
   */
  @Test void waitingRowFollowsAChunkMapChangedMeanwhile() throws Exception {
    final RangeScenario scenario = RangeScenario.of("loader-follows", folder);
    final MoveFixture fixture = scenario.fixture();
    final int moving = scenario.keys().moving();
    final ShardedInserter inserter = ShardedInserter.open(scenario.customers(), 1000);
    inserter.insert(moving, "moving");

    Mover.modelAfter(ModelFile.read(fixture.modelFile()), scenario.plan()).write();
    // This process re-reads the file now; the loader's waiting row holds the older version.
    assertThrows(TimeoutException.class,
        () -> ShardSetRuntime.get().liveModels().publishAndDrain(fixture.modelFile(),
            Duration.ZERO));
    inserter.close();

    assertEquals(List.of(scenario.target()), shardsHolding(fixture, moving));
    final long[] expected = new long[4];
    expected[scenario.customers().shardIndex(scenario.target())] = 1;
    assertArrayEquals(expected, inserter.rowsPerShard());
  }

  /**
   * The mover waits at the announce until the loader sends the rows it routed before; then
   * the row of a staying range is written once, and the move goes on.
   */
  @Test void moverWaitsForTheRowsALoaderRoutedBefore() throws Exception {
    final RangeScenario scenario = RangeScenario.of("loader-waits", folder);
    final MoveFixture fixture = scenario.fixture();
    final ShardedTable customers = scenario.customers();
    final int staying = scenario.keys().staying();
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final MoveListener listener = new MoveListener() {
      @Override public void step(Step step, String detail) {
        events.add(step + " " + detail);
      }

      @Override public void rows(long copied, long total) {
      }
    };
    final ShardedInserter inserter = ShardedInserter.open(customers, 1000);
    inserter.insert(staying, "staying");
    final AtomicReference<Throwable> moverFailure = new AtomicReference<>();
    final Thread moving = new Thread(() -> {
      try {
        mover(fixture, Duration.ofSeconds(30), listener).apply(scenario.plan());
      } catch (Throwable t) {
        moverFailure.set(t);
      }
    });
    moving.start();
    // The mover announced the move (the live model shows it) and now waits for the loader.
    final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (customers.reshard() == null && moving.isAlive() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertTrue(customers.reshard() != null, "the move was announced; mover: " + moverFailure);
    // Added before the rows are sent: the mover cannot go on until they are.
    events.add("loader sends its rows");
    inserter.close();
    moving.join();
    assertNull(moverFailure.get());

    final List<String> order = List.of("ANNOUNCE start", "loader sends its rows",
        "ANNOUNCE done", "DETACH start");
    assertEquals(order, events.stream().filter(order::contains).toList());
    assertEquals(List.of(scenario.ownerOf(staying)), shardsHolding(fixture, staying));
  }

  /**
   * A row routed before a shard joined, to the shard that gives its range to the new one, is
   * not written there after the move announced: the loader, which does not write to the new
   * shard, stops.
   */
  @Test void waitingRowIsNotWrittenToTheOldOwnerWhenAShardJoins() throws Exception {
    final MoveFixture fixture = MoveFixture.h2("loader-joined", folder, 200, 400);
    fixture.reset();
    final ShardSchema live = liveSchema(fixture);
    final ReshardPlan plan = ReshardPlanner.plan(fixture.model(),
        new Operation.AddShard("s4", fixture.fifthShard(), null));
    final RowOwners after = RowOwners.of(
        ShardSetRuntime.get().schema(fixture.model()).table("CUSTOMERS").sharded(),
        Mover.modelAfter(ModelFile.read(fixture.modelFile()), plan).model(FamilyShards.SCHEMA));
    int id = 1_000_000;
    while (!after.ownerOf(List.of(id)).equals("s4")) {
      id++;
    }
    final ShardedInserter inserter = ShardedInserter.open(live.table("CUSTOMERS").sharded(), 1000);
    inserter.insert(id, "late");

    final IllegalStateException held = assertThrows(IllegalStateException.class,
        () -> mover(fixture, SHORT_DRAIN, MoveListener.NONE).apply(plan));
    assertEquals(heldBack(fixture), held.getMessage());
    final IllegalStateException stopped =
        assertThrows(IllegalStateException.class, inserter::close);
    assertEquals(joined("CUSTOMERS"), stopped.getMessage());
    mover(fixture, SHORT_DRAIN, MoveListener.NONE).resume();

    assertEquals(List.of(), shardsHolding(fixture, id));
  }

  /**
   * A loader of a duplicated table whose schema was read before a shard joined stops rather
   * than write to the old shards only, which would leave the new shard's copy different.
   */
  @Test void loaderOfADuplicatedTableStopsOnceAShardJoined() throws Exception {
    final MoveFixture fixture = MoveFixture.h2("loader-dup", folder, 200, 400);
    fixture.reset();
    final Path file = fixture.modelFile();
    final String text = Files.readString(file);
    final String listed = "{\"name\": \"REGIONS\", \"method\": \"duplicated\","
        + " \"shards\": [\"s0\", \"s1\", \"s2\", \"s3\"]}";
    assertTrue(text.contains(listed));
    Files.writeString(file, text.replace(listed,
        "{\"name\": \"REGIONS\", \"method\": \"duplicated\"}"));
    final ShardSchema live = liveSchema(fixture);
    final ShardedTable before = live.table("REGIONS").sharded();
    mover(fixture, SHORT_DRAIN, MoveListener.NONE).apply(ReshardPlanner.plan(fixture.model(),
        new Operation.AddShard("s4", fixture.fifthShard(), null)));
    assertTrue(fixture.model().tables().stream()
        .filter(t -> t.name().equals("REGIONS")).findFirst().orElseThrow()
        .shards().contains("s4"));

    // A loader of the table as it was before s4 joined stops.
    try (ShardedInserter inserter = ShardedInserter.open(before, 10)) {
      final IllegalStateException stopped = assertThrows(IllegalStateException.class,
          () -> inserter.insert(99, "late"));
      assertEquals(joined("REGIONS"), stopped.getMessage());
    }
    assertEquals(fixture.count(0, "REGIONS"), fixture.count(4, "REGIONS"),
        "REGIONS on s0 and on s4");
    assertEquals(0, count(fixture, 0, "SELECT COUNT(*) FROM REGIONS WHERE REGION_ID = 99"));
    // The schema, which follows the model, gives the table on every shard now: that loads.
    final ShardedTable after = live.table("REGIONS").sharded();
    assertEquals(List.of("s0", "s1", "s2", "s3", "s4"), after.shardNames());
    try (ShardedInserter inserter = ShardedInserter.open(after, 10)) {
      inserter.insert(99, "late");
    }
    for (int shard = 0; shard < 5; shard++) {
      assertEquals(1, count(fixture, shard,
          "SELECT COUNT(*) FROM REGIONS WHERE REGION_ID = 99"), "s" + shard);
    }
  }

  private static String joined(String table) {
    return "table S." + table + ": the model now places it on shards [s0, s1, s2, s3, s4],"
        + " not [s0, s1, s2, s3] as when this loader started; start the load again";
  }

  /** The shards whose CUSTOMERS table holds a customer, each once per row. */
  private static List<String> shardsHolding(MoveFixture fixture, int customer)
      throws SQLException {
    final List<String> shards = new ArrayList<>();
    for (int shard = 0; shard < 5; shard++) {
      final long rows = count(fixture, shard,
          "SELECT COUNT(*) FROM CUSTOMERS WHERE CUSTOMER_ID = " + customer);
      for (long i = 0; i < rows; i++) {
        shards.add("s" + shard);
      }
    }
    return shards;
  }

  private static long count(MoveFixture fixture, int shard, String sql) throws SQLException {
    try (Connection c = fixture.connect(shard); Statement s = c.createStatement()) {
      try (ResultSet r = s.executeQuery(sql)) {
        r.next();
        return r.getLong(1);
      } catch (SQLException e) {
        if (e.getMessage().contains("not found")) {
          return 0; // a fifth shard that never joined has no tables
        }
        throw e;
      }
    }
  }
}
