package io.shardset.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.execution.ProgressMeters;
import io.shardset.execution.ShardMetrics;
import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.model.TableSpec;
import io.shardset.testing.LongTest;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Moves on H2 shards: every row ends where it routes, none lost or doubled, at any crash. */
class MoverTest {
  private static final Mover.Settings FAST = new Mover.Settings(Duration.ZERO,
      Duration.ofSeconds(5), 1000);

  /** Small enough that COPY commits several batches per target. */
  private static final int CRASH_BATCH = 40;

  @TempDir Path folder;

  /** Records events; throws at the {@code crashAt}-th (never when 0). */
  static final class Events implements MoveListener {
    private final int crashAt;
    final List<String> events = new ArrayList<>();
    long lastCopied = -1;
    long lastTotal = -1;

    Events(int crashAt) {
      this.crashAt = crashAt;
    }

    @Override public void step(Step step, String detail) {
      record(step + " " + detail);
    }

    @Override public void rows(long copied, long total) {
      lastCopied = copied;
      lastTotal = total;
      record("rows " + copied + "/" + total);
    }

    private void record(String event) {
      events.add(event);
      if (events.size() == crashAt) {
        throw new Crash(event);
      }
    }
  }

  /** The crash a test's listener simulates. */
  static final class Crash extends RuntimeException {
    Crash(String event) {
      super("crash at " + event);
    }
  }

  static Mover mover(MoveFixture fixture, MoveListener listener, int batchSize) {
    return new Mover(fixture.modelFile(), FamilyShards.SCHEMA,
        new Mover.Settings(Duration.ZERO, Duration.ofSeconds(5), batchSize), listener,
        fixture.preparer(), ShardSetRuntime.get().topology());
  }

  static Operation addFifth(MoveFixture fixture) {
    return new Operation.AddShard("s4", fixture.fifthShard(), null);
  }

  static ReshardPlan plan(MoveFixture fixture, Operation operation) {
    return ReshardPlanner.plan(fixture.model(), operation);
  }

  /** Every row read once, where it routes; no move left; the model records no move. */
  static void assertDone(MoveFixture fixture) throws SQLException {
    assertReadOnce(fixture, "at the end");
    assertNull(fixture.model().reshard());
    assertEquals(Map.of(), fixture.moveTables());
  }

  /** Readers of the model file read every row of the family exactly once. */
  static void assertReadOnce(MoveFixture fixture, String when) throws SQLException {
    Map<String, List<String>> read = fixture.readableRows();
    for (String table : MoveFixture.FAMILY) {
      List<String> expected = fixture.expectedRows(table);
      List<String> actual = read.get(table);
      if (!expected.equals(actual)) {
        List<String> missing = new ArrayList<>(expected);
        actual.forEach(missing::remove);
        List<String> extra = new ArrayList<>(actual);
        expected.forEach(extra::remove);
        throw new AssertionError(when + ": " + table + " reads " + actual.size() + " rows of "
            + expected.size() + "; missing " + first(missing) + ", read twice " + first(extra));
      }
    }
  }

  private static List<String> first(List<String> rows) {
    return rows.subList(0, Math.min(5, rows.size()));
  }

  /** The rows of the family's tables on a shard. */
  private static long familyRows(MoveFixture fixture, int shard) throws SQLException {
    long rows = 0;
    for (String table : MoveFixture.FAMILY) {
      rows += fixture.count(shard, table);
    }
    return rows;
  }

  private static TableSpec spec(ShardSetModel model, String table) {
    return model.tables().stream().filter(t -> t.name().equals(table)).findFirst()
        .orElseThrow();
  }

  private static double share(ShardSetModel model, String shard) {
    return model.chunkMap().stream().filter(e -> e.shard().equals(shard))
        .mapToDouble(e -> e.to() - e.from()).sum() / ChunkMapSpec.HASH_SPACE;
  }

  /**
   * A write still open on an H2 source when the move starts (its process lost its lease after
   * the write's last check): the move waits for it before it detaches, so its rows move too.
   */
  @Test void aWriteStillOpenOnAnH2SourceIsWaitedFor() throws Exception {
    MoveFixture fixture = MoveFixture.h2("open-write", folder, 400, 800);
    fixture.reset();
    List<Integer> late = fixture.newCustomersOn("s0", 50);
    Events events = new Events(0);
    try (Connection open = fixture.connect(0); Statement write = open.createStatement()) {
      open.setAutoCommit(false);
      for (int id : late) {
        write.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + id + ", 'late')");
      }
      CompletableFuture<Void> move = CompletableFuture.runAsync(() -> {
        try {
          mover(fixture, events, 100).apply(plan(fixture, addFifth(fixture)));
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      });
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (!List.copyOf(events.events)
          .contains("DETACH waiting for 1 session with uncommitted writes on s0")) {
        assertTrue(System.nanoTime() < deadline, events.events::toString);
        assertTrue(!move.isDone(), () -> "the move did not wait: " + events.events);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      }
      open.commit();
      move.get(2, TimeUnit.MINUTES);
    }
    fixture.assertCustomersWhereTheyRoute(late, "s0");
  }

  @Test void addFifthShard() throws Exception {
    MoveFixture fixture = MoveFixture.h2("add", folder, 8_000, 16_000);
    fixture.reset();
    long[] before = new long[4];
    for (int i = 0; i < 4; i++) {
      before[i] = familyRows(fixture, i);
    }
    Events events = new Events(0);
    ReshardPlan plan = plan(fixture, addFifth(fixture));
    ShardMetrics metrics = new ShardMetrics();
    metrics.registry().add(new SimpleMeterRegistry());
    ProgressMeters meters = ProgressMeters.of(metrics, "reshard", FamilyShards.SCHEMA);
    new Mover(fixture.modelFile(), FamilyShards.SCHEMA, FAST, events.metered(meters),
        fixture.preparer(), ShardSetRuntime.get().topology())
        .apply(plan);

    assertDone(fixture);
    ShardSetModel model = fixture.model();
    assertEquals("s4", model.shards().get(4).name());
    assertEquals(0.2, share(model, "s4"), 0.005);
    long moved = familyRows(fixture, 4);
    assertEquals(0.2, moved / 40_000.0, 0.03, "fraction of rows moved");
    long lost = 0;
    for (int i = 0; i < 4; i++) {
      long after = familyRows(fixture, i);
      assertTrue(after <= before[i], "s" + i + " only gives rows away");
      lost += before[i] - after;
    }
    assertEquals(moved, lost);
    assertEquals(5, fixture.count(4, "REGIONS"));
    assertEquals(List.of("s0", "s1", "s2", "s3", "s4"), spec(model, "VISITS").shards());
    assertTrue(fixture.count(4, "VISITS") > 0);
    assertEquals(moved, events.lastCopied);
    assertEquals(moved, events.lastTotal);
    // The gauges read what the listener was last told, until they are closed.
    assertEquals(moved, metrics.registry().get("shardset.reshard.rows.done")
        .tag("target", FamilyShards.SCHEMA).gauge().value());
    assertEquals(moved, metrics.registry().get("shardset.reshard.rows.total").gauge().value());
    meters.close();
    assertNull(metrics.registry().find("shardset.reshard.rows.done").gauge());
    metrics.close();
    List<String> steps = events.events.stream().filter(e -> e.endsWith(" start"))
        .map(e -> e.substring(0, e.indexOf(' '))).toList();
    assertEquals(List.of("PREPARE", "ANNOUNCE", "DETACH", "COPY", "VERIFY", "SWITCH", "MERGE",
        "FINISH", "DROP"), steps);
    String text = Files.readString(fixture.modelFile());
    assertTrue(text.lines().allMatch(l -> l.length() <= JsonText.WIDTH));
  }

  @Test void removeShard() throws Exception {
    MoveFixture fixture = MoveFixture.h2("remove", folder, 2_000, 4_000);
    fixture.reset();
    long leaving = familyRows(fixture, 3);
    mover(fixture, MoveListener.NONE, 1000)
        .apply(plan(fixture, new Operation.RemoveShard("s3")));
    assertDone(fixture);
    ShardSetModel model = fixture.model();
    assertEquals(List.of("s0", "s1", "s2"), model.shards().stream().map(s -> s.name()).toList());
    for (String table : List.of("VISITS", "REGIONS")) {
      assertEquals(List.of("s0", "s1", "s2"), spec(model, table).shards(), table);
    }
    assertEquals(0, familyRows(fixture, 3));
    assertTrue(leaving > 0);
  }

  @Test void moveRangeAndSplitRange() throws Exception {
    MoveFixture fixture = MoveFixture.h2("range", folder, 2_000, 4_000);
    fixture.reset();
    ReshardPlan move = plan(fixture, new Operation.MoveRange(0, "s2"));
    mover(fixture, MoveListener.NONE, 1000).apply(move);
    assertDone(fixture);
    ChunkMapSpec first = fixture.model().chunkMap().get(0);
    assertEquals("s2", first.shard());

    long[] counts = new long[4];
    for (int i = 0; i < 4; i++) {
      counts[i] = familyRows(fixture, i);
    }
    Events events = new Events(0);
    mover(fixture, events, 1000).apply(plan(fixture, new Operation.SplitRange(0, null)));
    assertDone(fixture);
    List<ChunkMapSpec> map = fixture.model().chunkMap();
    assertEquals(new ChunkMapSpec(0, first.to() / 2, "s2"), map.get(0));
    assertEquals(new ChunkMapSpec(first.to() / 2, first.to(), "s2"), map.get(1));
    for (int i = 0; i < 4; i++) {
      assertEquals(counts[i], familyRows(fixture, i));
    }
    assertEquals(List.of("PREPARE start", "PREPARE done", "FINISH start", "FINISH done"),
        events.events);
  }

  @Test void refusesAPlanOfAnotherChunkMap() throws Exception {
    MoveFixture fixture = MoveFixture.h2("stale", folder, 100, 100);
    fixture.reset();
    ReshardPlan stale = plan(fixture, new Operation.MoveRange(0, "s2"));
    mover(fixture, MoveListener.NONE, 1000).apply(plan(fixture,
        new Operation.SplitRange(0, null)));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> mover(fixture, MoveListener.NONE, 1000).apply(stale));
    assertEquals("the chunk map of schema 'S' changed since the plan of move-chunk 0 s2 was"
        + " made; plan again", e.getMessage());
  }

  @Test void oneMoverAtATimePerModelFile() throws Exception {
    MoveFixture fixture = MoveFixture.h2("locked", folder, 100, 100);
    fixture.reset();
    ReshardPlan split = plan(fixture, new Operation.SplitRange(0, null));
    try (MoveLock held = MoveLock.acquire(fixture.modelFile())) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> mover(fixture, MoveListener.NONE, 1000).apply(split));
      assertEquals("another reshard apply is running on " + fixture.modelFile() + " (it holds "
          + MoveLock.lockFile(fixture.modelFile()) + "); wait for it to end", e.getMessage());
      e = assertThrows(IllegalStateException.class,
          () -> mover(fixture, MoveListener.NONE, 1000).resume());
      assertTrue(e.getMessage().startsWith("another reshard apply is running on "));
    }
    mover(fixture, MoveListener.NONE, 1000).apply(split);
    assertEquals(481, ModelFile.read(fixture.modelFile()).model(FamilyShards.SCHEMA).chunkMap()
        .size());
  }

  /** The fast tier's sample of the crash matrix below. */
  @Test void crashAtEverySeventhEventOfAddShardThenResume() throws Exception {
    crashAtEvents(MoveFixture.h2("crash-sample", folder, 200, 400), MoverTest::addFifth, 7);
  }

  @LongTest
  @Test void crashAtEveryEventOfAddShardThenResume() throws Exception {
    crashAtEvents(MoveFixture.h2("crash-add", folder, 200, 400), MoverTest::addFifth, 1);
  }

  /** Every other event: add-shard crashes at every one. */
  @LongTest
  @Test void crashAtEveryOtherEventOfRemoveShardThenResume() throws Exception {
    crashAtEvents(MoveFixture.h2("crash-remove", folder, 200, 400),
        fixture -> new Operation.RemoveShard("s3"), 2);
  }

  /** The operation to run, made from the fixture it runs on. */
  interface OperationOf {
    Operation of(MoveFixture fixture);
  }

  /**
   * Runs the operation once to count its events, then again crashing at every
   * {@code stride}-th event: readers read each row once after the crash, and resuming (or,
   * before the model changed, starting again) ends in the correct state. The runs share the
   * shards' pools of eight connections, so a crash that kept a connection would soon leave
   * later runs waiting for one, and one that left a transaction open would block them on its
   * locks.
   */
  static void crashAtEvents(MoveFixture fixture, OperationOf operation, int stride)
      throws Exception {
    fixture.reset();
    Events clean = new Events(0);
    mover(fixture, clean, CRASH_BATCH).apply(plan(fixture, operation.of(fixture)));
    assertDone(fixture);
    int count = clean.events.size();
    assertTrue(count > 30, "events: " + clean.events);
    for (int k = 1; k <= count; k += stride) {
      fixture.reset();
      String original = Files.readString(fixture.modelFile());
      Events crashing = new Events(k);
      Crash crash = assertThrows(Crash.class,
          () -> mover(fixture, crashing, CRASH_BATCH).apply(plan(fixture, operation.of(fixture))));
      String at = crash.getMessage();
      assertReadOnce(fixture, "after a " + at);
      Mover mover = mover(fixture, MoveListener.NONE, CRASH_BATCH);
      mover.resume();
      if (Files.readString(fixture.modelFile()).equals(original)) {
        // Stopped before ANNOUNCE: the model never changed, so the operation starts again.
        mover.apply(plan(fixture, operation.of(fixture)));
      }
      try {
        assertDone(fixture);
      } catch (AssertionError e) {
        throw new AssertionError("after a " + at + ": " + e.getMessage(), e);
      }
    }
  }

  @Test void keepsMoveTablesThatNoMoveExplains() throws Exception {
    MoveFixture fixture = MoveFixture.h2("stray", folder, 10, 10);
    fixture.reset();
    try (var c = fixture.connect(2); var s = c.createStatement()) {
      s.execute("CREATE TABLE CUSTOMERS_SHARDSET_MOVE AS SELECT * FROM CUSTOMERS WHERE 1 = 0");
      s.execute("INSERT INTO CUSTOMERS_SHARDSET_MOVE VALUES (12345, 'stray')");
    }
    String message = "move table CUSTOMERS_SHARDSET_MOVE on shard 's2' holds 1 rows, but the"
        + " model records no move; readers do not see them: put them back into CUSTOMERS or"
        + " delete them, then drop the move table";
    assertEquals(message, assertThrows(IllegalStateException.class,
        () -> mover(fixture, MoveListener.NONE, 10).resume()).getMessage());
    assertEquals(message, assertThrows(IllegalStateException.class,
        () -> mover(fixture, MoveListener.NONE, 10).apply(plan(fixture, addFifth(fixture))))
        .getMessage());
    assertNull(fixture.model().reshard(), "the model is unchanged");
  }

  @Test void resumeWithoutAMoveDropsLeftovers() throws IOException, SQLException,
      InterruptedException {
    MoveFixture fixture = MoveFixture.h2("leftovers", folder, 10, 10);
    fixture.reset();
    try (var c = fixture.connect(1); var s = c.createStatement()) {
      s.execute("CREATE TABLE ORDERS_SHARDSET_MOVE AS SELECT * FROM ORDERS WHERE 1 = 0");
    }
    assertEquals(Map.of("s1", List.of("ORDERS_SHARDSET_MOVE")), fixture.moveTables());
    mover(fixture, MoveListener.NONE, 10).resume();
    assertDone(fixture);
  }
}
