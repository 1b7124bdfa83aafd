package io.shardset.reshard;

import io.shardset.testing.LongTest;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Moves on PostgreSQL shards, whose tables and move tables have lower-case names and whose
 * driver streams only inside transactions.
 */
class PostgresMoverTest {
  @TempDir Path folder;

  @Test void addAndRemoveOnPostgres() throws Exception {
    onPostgres("reshard_mover", fixture -> {
      MoverTest.mover(fixture, MoveListener.NONE, 100)
          .apply(MoverTest.plan(fixture, MoverTest.addFifth(fixture)));
      MoverTest.assertDone(fixture);
      MoverTest.mover(fixture, MoveListener.NONE, 100)
          .apply(MoverTest.plan(fixture, new Operation.RemoveShard("s0")));
      MoverTest.assertDone(fixture);
      assertEquals(List.of("s1", "s2", "s3", "s4"),
          fixture.model().shards().stream().map(s -> s.name()).toList());
    });
  }

  /**
   * A transaction of ShardSet's left prepared on a source (its process decided it, then was
   * paused): the move waits for it before it copies, so that the rows it commits move too.
   */
  @Test void aTransactionPreparedOnASourceIsWaitedForAndItsRowsMove() throws Exception {
    onPostgres("reshard_prepared", fixture -> {
      final List<Integer> late = fixture.newCustomersOn("s0", 50);
      // Prepared transactions' ids are the PostgreSQL server's, not one database's.
      final String gid = "ss_test" + ProcessHandle.current().pid() + "_late_1_0";
      try (Connection c = fixture.connect(0); Statement s = c.createStatement()) {
        c.setAutoCommit(false);
        for (int id : late) {
          s.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + id + ", 'late')");
        }
        s.execute("PREPARE TRANSACTION '" + gid + "'");
      }
      final MoverTest.Events events = new MoverTest.Events(0);
      final CompletableFuture<Void> move = CompletableFuture.runAsync(() -> {
        try {
          MoverTest.mover(fixture, events, 100)
              .apply(MoverTest.plan(fixture, MoverTest.addFifth(fixture)));
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      });
      final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (!List.copyOf(events.events)
          .contains("DETACH waiting for 1 prepared transaction on s0")) {
        assertTrue(System.nanoTime() < deadline, events.events::toString);
        assertTrue(!move.isDone(), () -> "the move did not wait: " + events.events);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      }
      try (Connection c = fixture.connect(0); Statement s = c.createStatement()) {
        s.execute("COMMIT PREPARED '" + gid + "'");
      }
      move.get(2, TimeUnit.MINUTES);
      fixture.assertCustomersWhereTheyRoute(late, "s0");
    });
  }

  /**
   * A write of ShardSet's still open on a source when the move starts (its process lost its
   * lease after the write's last check, and commits only later): the move waits for it before
   * it detaches the moving rows, so that the rows it commits move too.
   */
  @Test void aWriteStillOpenOnASourceIsWaitedForAndItsRowsMove() throws Exception {
    onPostgres("reshard_open", fixture -> {
      final List<Integer> late = fixture.newCustomersOn("s0", 50);
      try (Connection open = fixture.connect(0); Statement write = open.createStatement()) {
        open.setAutoCommit(false);
        for (int id : late) {
          write.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + id + ", 'late')");
        }
        final CompletableFuture<Void> move = CompletableFuture.runAsync(() -> {
          try {
            MoverTest.mover(fixture, MoveListener.NONE, 100)
                .apply(MoverTest.plan(fixture, MoverTest.addFifth(fixture)));
          } catch (Exception e) {
            throw new CompletionException(e);
          }
        });
        // The move waits for the open write's lock on s0.
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (waitingLocks(fixture) == 0) {
          assertTrue(System.nanoTime() < deadline, "the move never waited");
          assertTrue(!move.isDone(), "the move did not wait for the open write");
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        open.commit();
        move.get(2, TimeUnit.MINUTES);
      }
      fixture.assertCustomersWhereTheyRoute(late, "s0");
    });
  }

  /**
   * A write left open on a source by a process that stalled (it sits idle in its transaction
   * past half the drain timeout): its session is ended, which rolls it back, and the move goes
   * on; none of its rows is anywhere afterwards.
   */
  @Test void aWriteLeftIdleByAStalledProcessIsEndedAndTheMoveGoesOn() throws Exception {
    onPostgres("reshard_stalled", fixture -> {
      final List<Integer> late = fixture.newCustomersOn("s0", 50);
      final MoverTest.Events events = new MoverTest.Events(0);
      final int pid;
      try (Connection open = fixture.connect(0); Statement write = open.createStatement()) {
        open.setAutoCommit(false);
        for (int id : late) {
          write.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + id + ", 'late')");
        }
        try (ResultSet rs = write.executeQuery("SELECT pg_backend_pid()")) {
          rs.next();
          pid = rs.getInt(1);
        }
        MoverTest.mover(fixture, events, 100)
            .apply(MoverTest.plan(fixture, MoverTest.addFifth(fixture)));
        final SQLException e = assertThrows(SQLException.class, open::commit);
        assertEquals("57P01", e.getSQLState(), e.getMessage());
      }
      assertTrue(List.copyOf(events.events).contains("DETACH ended session " + pid + " of "
          + PostgresServer.USER + " on s0: idle for over 2 s in a transaction that wrote to"
          + " the moving tables"), events.events::toString);
      MoverTest.assertDone(fixture);
      for (int i = 0; i < 5; i++) {
        try (Connection c = fixture.connect(i);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM CUSTOMERS"
                 + " WHERE NAME = 'late'")) {
          rs.next();
          assertEquals(0, rs.getInt(1), "late rows on s" + i);
        }
      }
    });
  }

  /** The lock requests waiting on shard s0's database. */
  private static int waitingLocks(MoveFixture fixture) throws SQLException {
    try (Connection c = fixture.connect(0); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pg_locks WHERE NOT granted"
             + " AND database = (SELECT oid FROM pg_database"
             + " WHERE datname = current_database())")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @LongTest
  @Test void crashAtEveryTwentyFifthEventOfAddShardOnPostgres() throws Exception {
    onPostgres("reshard_crash",
        fixture -> MoverTest.crashAtEvents(fixture, MoverTest::addFifth, 25));
  }

  /** What a test does with a fixture over PostgreSQL shards. */
  interface FixtureUse {
    void accept(MoveFixture fixture) throws Exception;
  }

  /** Runs {@code use} over five new PostgreSQL databases, dropped afterwards. */
  private void onPostgres(String prefix, FixtureUse use) throws Exception {
    PostgresServer.require();
    final List<String> databases = PostgresServer.createDatabases(prefix, 5);
    try {
      final MoveFixture fixture =
          new MoveFixture(FamilyShards.postgres(databases), folder, 200, 400);
      fixture.reset();
      use.accept(fixture);
    } finally {
      PostgresServer.drop(databases);
    }
  }
}
