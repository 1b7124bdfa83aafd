package io.shardset.reshard;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardSchemaFactory;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.model.ChunkMapSpec;
import io.shardset.routing.KeyHasher;
import io.shardset.topology.ShardedTable;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INSERT through {@code jdbc:shardset:} while a resharding moves a range: with
 * {@code writeWaitMillis} a row of the moving range waits for the move's end and lands once on
 * the range's new owner, or fails with SQLState 40001 when the move does not end in time; a
 * transaction that already wrote does not wait; and a transaction that wrote before the move
 * holds the mover at its announce until it commits.
 */
class WriteDuringMoveTest {
  @TempDir Path folder;

  /** A fixture whose model sets writeWaitMillis, a moving and a staying customer, the plan. */
  private record Scenario(MoveFixture fixture, ShardedTable customers, int moving,
      int staying, ChunkMapSpec range, String target, ReshardPlan plan) {
    static Scenario of(String name, Path folder, long waitMillis) throws Exception {
      final MoveFixture fixture = MoveFixture.h2(name, folder, 200, 400);
      fixture.reset();
      final Path file = fixture.modelFile();
      final String text = Files.readString(file);
      final int at = text.indexOf("\"shards\": [");
      Files.writeString(file, text.substring(0, at) + "\"writeWaitMillis\": " + waitMillis
          + ", " + text.substring(at));
      final ShardedTable customers = ((ShardSchema) new ShardSchemaFactory().create(null,
          FamilyShards.SCHEMA, ModelFile.read(file).operand(FamilyShards.SCHEMA)))
          .table("CUSTOMERS").sharded();
      final int moving = 1_000_000;
      final ChunkMapSpec range = ReshardPlanner.explicitChunkMap(fixture.model()).stream()
          .filter(c -> c.from() <= hash(customers, moving) && hash(customers, moving) < c.to())
          .findFirst().orElseThrow();
      int staying = moving + 1;
      while (range.from() <= hash(customers, staying) && hash(customers, staying) < range.to()) {
        staying++;
      }
      final String target = range.shard().equals("s0") ? "s1" : "s0";
      return new Scenario(fixture, customers, moving, staying, range, target,
          ReshardPlanner.plan(fixture.model(), new Operation.MoveRange(range.from(), target)));
    }

    private static long hash(ShardedTable customers, int id) {
      return KeyHasher.hash(KeyHasher.keyBytes(customers.keyTypes(), List.of(id)));
    }

    String refusal() {
      return "table S.CUSTOMERS: key CUSTOMER_ID = " + moving + " lies in hash range ["
          + range.from() + ", " + range.to() + ") of shardspace 'default', which is moving"
          + " from " + range.shard() + " to " + target;
    }

    /** Runs the move on another thread; its failure, if any, in the reference. */
    Thread move(MoveListener listener, AtomicReference<Throwable> failure) {
      final Thread mover = new Thread(() -> {
        try {
          new Mover(fixture.modelFile(), FamilyShards.SCHEMA,
              new Mover.Settings(Duration.ZERO, Duration.ofSeconds(60), 100), listener,
              fixture.preparer(), ShardSetRuntime.get().topology()).apply(plan);
        } catch (Throwable t) {
          failure.set(t);
        }
      }, "mover");
      mover.start();
      return mover;
    }
  }

  /** A listener that records the steps' starts and ends and can hold one of them. */
  private static final class Held implements MoveListener {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final String at;
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch go = new CountDownLatch(1);

    Held(String at) {
      this.at = at;
    }

    @Override public void step(Step step, String detail) {
      final String event = step + " " + detail;
      events.add(event);
      if (event.equals(at)) {
        reached.countDown();
        try {
          assertTrue(go.await(60, TimeUnit.SECONDS), "released within 60 s");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override public void rows(long copied, long total) {
    }
  }

  @Test void aWriteIntoAMovingRangeWaitsForTheMoveAndLandsOnTheNewOwner() throws Exception {
    final Scenario scenario = Scenario.of("write-waits", folder, 60_000);
    final Held held = new Held("DETACH start");
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Thread mover = heldAtDetach(scenario, held, failure);
    try (Connection c = FamilyData.connect(scenario.fixture().modelFile());
         Statement s = c.createStatement()) {
      // Held at DETACH, the range moves: the INSERT waits, so the move may go on.
      held.go.countDown();
      assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + scenario.moving()
          + ", 'waited')"));
      held.events.add("insert returned");
    }
    mover.join();
    assertNull(failure.get());
    final List<String> order = List.of("DETACH start", "SWITCH done", "FINISH start",
        "insert returned");
    assertEquals(order, held.events.stream().filter(order::contains).toList());
    assertEquals(List.of(scenario.target()), shardsHolding(scenario.fixture(),
        scenario.moving()));
  }

  @Test void aWriteThatWaitsInVainFailsRetryably() throws Exception {
    final Scenario scenario = Scenario.of("write-times-out", folder, 300);
    final Held held = new Held("DETACH start");
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Thread mover = heldAtDetach(scenario, held, failure);
    try (Connection c = FamilyData.connect(scenario.fixture().modelFile());
         Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "INSERT INTO CUSTOMERS VALUES (" + scenario.moving() + ", 'late')"));
      assertEquals("40001", e.getSQLState());
      assertTrue(e.getMessage().contains(scenario.refusal() + "; waited 300 ms for the move"
          + " (writeWaitMillis); retry after the move"), e.getMessage());
      assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + scenario.staying()
          + ", 'staying')"));
    } finally {
      held.go.countDown();
      mover.join();
    }
    assertNull(failure.get());
    assertEquals(List.of(), shardsHolding(scenario.fixture(), scenario.moving()));
    assertEquals(1, shardsHolding(scenario.fixture(), scenario.staying()).size());
  }

  @Test void aTransactionThatWroteDoesNotWait() throws Exception {
    final Scenario scenario = Scenario.of("write-no-wait", folder, 60_000);
    final Held held = new Held("DETACH start");
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Thread mover = heldAtDetach(scenario, held, failure);
    try (Connection c = FamilyData.connect(scenario.fixture().modelFile());
         Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + scenario.staying()
          + ", 'staying')"));
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "INSERT INTO CUSTOMERS VALUES (" + scenario.moving() + ", 'late')"));
      assertEquals("40001", e.getSQLState());
      assertTrue(e.getMessage().contains(scenario.refusal() + "; the transaction holds earlier"
          + " writes, which hold the move back; roll it back and retry after the move"),
          e.getMessage());
      c.rollback();
    } finally {
      held.go.countDown();
      mover.join();
    }
    assertNull(failure.get());
    assertEquals(List.of(), shardsHolding(scenario.fixture(), scenario.moving()));
    assertEquals(List.of(), shardsHolding(scenario.fixture(), scenario.staying()));
  }

  @Test void anUncommittedTransactionHoldsTheMoverAtItsNextStep() throws Exception {
    final Scenario scenario = Scenario.of("write-holds", folder, 0);
    final Held held = new Held("none");
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    try (Connection c = FamilyData.connect(scenario.fixture().modelFile());
         Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      // Routed under the version before the move: the moving range's owner, not the target.
      assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + scenario.moving()
          + ", 'before')"));
      final Thread mover = scenario.move(held, failure);
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (scenario.customers().reshard() == null && mover.isAlive()
          && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertTrue(scenario.customers().reshard() != null, "announced; mover: " + failure);
      held.events.add("commit");
      c.commit();
      mover.join();
    }
    assertNull(failure.get());
    final List<String> order = List.of("ANNOUNCE start", "commit", "ANNOUNCE done",
        "DETACH start");
    assertEquals(order, held.events.stream().filter(order::contains).toList());
    // Committed on the old owner before the detach, the row moved with its range.
    assertEquals(List.of(scenario.target()), shardsHolding(scenario.fixture(),
        scenario.moving()));
  }

  /** Starts the move and returns once it is held at DETACH, its range announced as moving. */
  private static Thread heldAtDetach(Scenario scenario, Held held,
      AtomicReference<Throwable> failure) throws InterruptedException {
    final Thread mover = scenario.move(held, failure);
    assertTrue(held.reached.await(60, TimeUnit.SECONDS), "announced; mover: " + failure);
    return mover;
  }

  /** The shards whose CUSTOMERS table holds a customer, each once per row. */
  private static List<String> shardsHolding(MoveFixture fixture, int customer)
      throws SQLException {
    final List<String> shards = new ArrayList<>();
    for (int shard = 0; shard < 4; shard++) {
      try (Connection c = fixture.connect(shard); Statement s = c.createStatement();
           ResultSet r = s.executeQuery("SELECT COUNT(*) FROM CUSTOMERS WHERE CUSTOMER_ID = "
               + customer)) {
        r.next();
        for (long i = 0; i < r.getLong(1); i++) {
          shards.add("s" + shard);
        }
      }
    }
    return shards;
  }
}
