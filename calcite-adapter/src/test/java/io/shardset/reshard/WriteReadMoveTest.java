package io.shardset.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A writer, a reader and the mover together, on H2 and on PostgreSQL shards: a fifth shard joins
 * while a writer inserts customers through {@code jdbc:shardset:} (retrying a row refused with
 * 40001 later) and a reader reads every customer again and again. Every insert that returned is
 * read by every later read and is found once at the end, on the shard the final model routes it to;
 * no read sees a key twice; and the writer wrote in every state of the move.
 */
class WriteReadMoveTest {
  /** The steps at whose end the writer must have written since their start. */
  private static final Set<Step> STATES =
      Set.of(Step.ANNOUNCE, Step.DETACH, Step.COPY, Step.VERIFY, Step.MERGE);

  @TempDir Path folder;

  @Test void everyAcknowledgedWriteIsReadAndKeptOnceOnH2() throws Exception {
    writeAndReadWhileAShardJoins(MoveFixture.h2("write-read-move", folder, 200, 400));
  }

  @Test void everyAcknowledgedWriteIsReadAndKeptOnceOnPostgres() throws Exception {
    PostgresServer.require();
    final List<String> databases = PostgresServer.createDatabases("write_read_move", 6);
    try {
      writeAndReadWhileAShardJoins(new MoveFixture(FamilyShards.postgres(databases), folder,
          200, 400));
    } finally {
      PostgresServer.drop(databases);
    }
  }

  private void writeAndReadWhileAShardJoins(MoveFixture fixture) throws Exception {
    fixture.reset();
    final Path model = fixture.modelFile();
    final Set<Integer> acked = ConcurrentHashMap.newKeySet();
    final AtomicInteger writes = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();
    final AtomicInteger reads = new AtomicInteger();
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    final AtomicBoolean done = new AtomicBoolean();
    final Thread writer = new Thread(() -> {
      final Deque<Integer> retry = new ArrayDeque<>();
      int next = 1_000;
      try {
        Connection c = FamilyData.connect(model);
        try {
          while (!done.get() || !retry.isEmpty()) {
            final Integer id = retry.isEmpty() || retry.size() < 50 && !done.get()
                ? Integer.valueOf(next++) : retry.poll();
            try (Statement s = c.createStatement()) {
              s.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + id + ", 'w')");
              acked.add(id);
              synchronized (writes) {
                writes.incrementAndGet();
                writes.notifyAll();
              }
            } catch (SQLException e) {
              // A moving range refuses a write, and so does the model's change while a write
              // was planned; the connection, opened before the shard joined, follows the
              // model, so the same write run again succeeds.
              if (!"40001".equals(e.getSQLState())
                  || !e.getMessage().contains("which is moving")
                  && !e.getMessage().contains("as when this statement was planned; run it again")) {
                throw e;
              }
              refused.incrementAndGet();
              retry.add(id);
            }
          }
        } finally {
          c.close();
        }
      } catch (Throwable e) {
        failures.add("writer failed: " + e);
      }
    }, "writer");
    final Thread reader = new Thread(() -> {
      try {
        Connection c = FamilyData.connect(model);
        try {
          while (!done.get()) {
            final Set<Integer> before = Set.copyOf(acked);
            final Set<Integer> seen = new HashSet<>();
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT CUSTOMER_ID FROM CUSTOMERS")) {
              while (r.next()) {
                if (!seen.add(r.getInt(1))) {
                  failures.add("read customer " + r.getInt(1) + " twice");
                }
              }
            }
            final Set<Integer> missed = new HashSet<>(before);
            missed.removeAll(seen);
            if (!missed.isEmpty()) {
              failures.add("a read missed acknowledged customers " + missed);
            }
            reads.incrementAndGet();
          }
        } finally {
          c.close();
        }
      } catch (Throwable e) {
        failures.add("reader failed: " + e);
      }
    }, "reader");
    final Map<Step, Integer> startWrites = new TreeMap<>();
    final List<String> writtenIn = new ArrayList<>();
    final MoveListener listener = new MoveListener() {
      @Override public void step(Step step, String detail) {
        if (detail.equals("start")) {
          startWrites.put(step, writes.get());
        } else if (detail.equals("done") && STATES.contains(step)) {
          awaitWrite(writes, startWrites.get(step), failures);
          writtenIn.add(step.name());
        }
      }

      @Override public void rows(long copied, long total) {
      }
    };
    writer.start();
    reader.start();
    try {
      new Mover(model, FamilyShards.SCHEMA,
          new Mover.Settings(Duration.ZERO, Duration.ofSeconds(60), 100), listener,
          fixture.preparer(), ShardSetRuntime.get().topology())
          .apply(ReshardPlanner.plan(fixture.model(),
              new Operation.AddShard("s4", fixture.fifthShard(), null)));
    } finally {
      done.set(true);
      writer.join(TimeUnit.SECONDS.toMillis(60));
      reader.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertEquals(List.of(), List.copyOf(failures));
    assertEquals(STATES.size(), writtenIn.size(), "states written in: " + writtenIn);
    assertTrue(reads.get() > 0 && refused.get() > 0, reads + " reads, " + refused
        + " refusals");
    final List<String> expected = new ArrayList<>(fixture.expectedRows("CUSTOMERS"));
    acked.forEach(id -> expected.add(id + "|w"));
    expected.sort(null);
    // Every row where the final model routes it (checked by readableRows), each once.
    assertEquals(expected, fixture.readableRows().get("CUSTOMERS"));
    assertEquals(Map.of(), fixture.moveTables());
    long onShards = 0;
    for (int shard = 0; shard < 5; shard++) {
      onShards += fixture.count(shard, "CUSTOMERS");
    }
    assertEquals(expected.size(), onShards, "customers on all shards");
  }

  /** Waits until the writer has written more than {@code since} rows. */
  private static void awaitWrite(AtomicInteger writes, int since,
      ConcurrentLinkedQueue<String> failures) {
    synchronized (writes) {
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (writes.get() <= since && failures.isEmpty()) {
        final long left = deadline - System.nanoTime();
        if (left <= 0) {
          failures.add("the writer wrote nothing within 60 s");
          return;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(writes, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
