package io.shardset.session;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;
import io.shardset.transaction.TransactionCoordinator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Transactions of several sessions on the same rows, on four shards: moves of one row's key
 * by two sessions at once never copy it (the second waits on the first's lock and then finds
 * nothing to move, or fails with 40001), and a deadlock that spans two shards, which neither
 * shard can see, ends with one transaction failing with 40P01 while the other commits.
 */
class ConcurrentTransactionsTest {
  private static final long WAIT_SECONDS = 60;

  private ShardFixture fixture;
  private String model;
  private final ExecutorService threads = Executors.newCachedThreadPool();

  /**
   * Creates the shards and the model.
   *
   * @param shardEntries added to each shard of the model (a lock timeout, say)
   * @param transactionEntries added to the model's {@code transactions}
   */
  private void open(Backend backend, String shardEntries, String transactionEntries)
      throws SQLException {
    fixture = ShardFixture.create(backend, HashedItems.SHARDS,
        "CREATE TABLE ITEMS (ID BIGINT PRIMARY KEY, V INTEGER NOT NULL)");
    model = HashedItems.model(fixture, shardEntries, transactionEntries);
  }

  @AfterEach void close() throws SQLException {
    threads.shutdownNow();
    if (fixture != null) {
      fixture.close();
    }
  }

  private Connection connect() throws SQLException {
    return Connector.SHARDSET.open(model);
  }

  private static int shardOf(long id) {
    return HashedItems.shardOf(id);
  }

  private static long onOtherShard(long id, long from) {
    return HashedItems.onOtherShard(id, from);
  }

  /** Every row's ID on every shard, as {@code s<n>: ID}, sorted. */
  private List<String> ids() throws SQLException {
    final List<String> ids = new ArrayList<>();
    for (String shard : fixture.shards().names()) {
      try (Connection c = fixture.shards().endpoint(shard).connect()) {
        for (String id : ShardFixture.rows(c, "SELECT ID FROM ITEMS")) {
          ids.add(shard + ": " + id);
        }
      }
    }
    return ShardFixture.sorted(ids);
  }

  /** Runs a statement on another thread; its outcome is the future's. */
  private Future<Integer> later(Statement statement, String sql) {
    return threads.submit(() -> statement.executeUpdate(sql));
  }

  private static <T> T await(Future<T> future) throws Exception {
    try {
      return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new AssertionError("the statement did not end in " + WAIT_SECONDS + " s", e);
    }
  }

  /** The exception a statement's future ended with, or null if it succeeded. */
  private static SQLException failure(Future<Integer> future) throws Exception {
    try {
      await(future);
      return null;
    } catch (ExecutionException e) {
      return assertInstanceOf(SQLException.class, e.getCause());
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void twoSessionsMovingOneRowNeverCopyIt(Backend backend) throws Exception {
    open(backend, "", "");
    for (int round = 0; round < 6; round++) {
      final long id = 1000L * (round + 1);
      final long first = onOtherShard(id, id + 1);
      final long second = onOtherShard(id, first + 1);
      try (Connection setUp = connect(); Statement s = setUp.createStatement()) {
        s.executeUpdate("DELETE FROM ITEMS");
        s.executeUpdate("INSERT INTO ITEMS VALUES (" + id + ", 0)");
      }
      try (Connection a = connect(); Connection b = connect();
           Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
        a.setAutoCommit(false);
        b.setAutoCommit(false);
        assertEquals(1, sa.executeUpdate("UPDATE ITEMS SET ID = " + first + " WHERE ID = "
            + id));
        // B reads the row A moved, locking: it waits for A's lock on the row's shard.
        final Future<Integer> moved = later(sb, "UPDATE ITEMS SET ID = " + second
            + " WHERE ID = " + id);
        if (round % 2 == 0) {
          LockWaits.await(fixture, moved);
        }
        a.commit();
        final SQLException refused = failure(moved);
        if (refused == null) {
          assertEquals(0, await(moved), "round " + round);
          b.commit();
        } else {
          assertEquals("40001", refused.getSQLState(), refused.getMessage());
          b.rollback();
        }
      }
      assertEquals(List.of("s" + shardOf(first) + ": " + first), ids(), "round " + round);
    }
  }

  @ParameterizedTest @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aDeadlockAcrossShardsEndsWithOneVictimAndTheOtherCommits(Backend backend)
      throws Exception {
    open(backend, "", "\"deadlockCheckMillis\": 100");
    final long x = 1;
    final long y = onOtherShard(x, 2);
    try (Connection setUp = connect(); Statement s = setUp.createStatement()) {
      s.executeUpdate("INSERT INTO ITEMS VALUES (" + x + ", 0), (" + y + ", 0)");
    }
    try (Connection older = connect(); Connection younger = connect();
         Statement so = older.createStatement(); Statement sy = younger.createStatement()) {
      older.setAutoCommit(false);
      younger.setAutoCommit(false);
      so.executeUpdate("UPDATE ITEMS SET V = 1 WHERE ID = " + x);
      sy.executeUpdate("UPDATE ITEMS SET V = 2 WHERE ID = " + y);
      // Each waits for the other's lock, on another shard: no shard sees a deadlock.
      final Future<Integer> olderWaits = later(so, "UPDATE ITEMS SET V = 1 WHERE ID = " + y);
      final Future<Integer> youngerWaits = later(sy, "UPDATE ITEMS SET V = 2 WHERE ID = " + x);
      final SQLException victim = failure(youngerWaits);
      assertTrue(victim != null, "the younger transaction was not chosen");
      assertEquals("40P01", victim.getSQLState(), victim.getMessage());
      assertTrue(victim.getMessage().contains("deadlock detected across shards"),
          victim.getMessage());
      younger.rollback();
      assertEquals(1, await(olderWaits));
      older.commit();
      final TransactionCoordinator coordinator =
          ShardFixture.schema(older).table("ITEMS").coordinator();
      assertEquals(1, coordinator.deadlocksEnded());
    }
    try (Connection c = connect()) {
      assertEquals(List.of("1", "1"), ShardFixture.rows(c, "SELECT V FROM ITEMS ORDER BY ID"));
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void aLockWaitEndsAtTheShardsLockTimeoutWith55P03(Backend backend) throws Exception {
    open(backend, "\"lockTimeout\": 1000", "\"deadlockCheckMillis\": 0");
    try (Connection setUp = connect(); Statement s = setUp.createStatement()) {
      s.executeUpdate("INSERT INTO ITEMS VALUES (1, 0)");
    }
    try (Connection holder = connect(); Connection waiter = connect();
         Statement sh = holder.createStatement(); Statement sw = waiter.createStatement()) {
      holder.setAutoCommit(false);
      waiter.setAutoCommit(false);
      sh.executeUpdate("UPDATE ITEMS SET V = 1 WHERE ID = 1");
      final SQLException timedOut = failure(later(sw, "UPDATE ITEMS SET V = 2 WHERE ID = 1"));
      assertTrue(timedOut != null, "the wait did not end");
      assertEquals("55P03", timedOut.getSQLState(), timedOut.getMessage());
      waiter.rollback();
      holder.commit();
    }
    try (Connection c = connect()) {
      assertEquals(List.of("1"), ShardFixture.rows(c, "SELECT V FROM ITEMS"));
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void selectForUpdateLocksTheRowsItReadsUntilTheTransactionEnds(Backend backend)
      throws Exception {
    open(backend, "", "");
    final long other = onOtherShard(1, 2);
    try (Connection setUp = connect(); Statement s = setUp.createStatement()) {
      s.executeUpdate("INSERT INTO ITEMS VALUES (1, 0), (" + other + ", 0)");
      // Outside a transaction the clause changes nothing: the locks would end with the read.
      assertEquals(List.of("1, 0"), ShardFixture.rows(setUp,
          "SELECT ID, V FROM ITEMS WHERE ID = 1 FOR UPDATE"));
    }
    try (Connection locker = connect(); Connection writer = connect();
         Statement sw = writer.createStatement()) {
      locker.setAutoCommit(false);
      assertEquals(List.of("1, 0", other + ", 0"), ShardFixture.rows(locker,
          "SELECT ID, V FROM ITEMS ORDER BY ID FOR UPDATE"));
      final Future<Integer> update = later(sw, "UPDATE ITEMS SET V = 7 WHERE ID = " + other);
      LockWaits.await(fixture, update);
      assertTrue(!update.isDone(), "the update did not wait for the lock");
      locker.commit();
      assertEquals(1, await(update));
      // What a shard cannot lock row by row is refused, not read unlocked.
      final SQLException grouped = assertThrows(SQLException.class, () -> ShardFixture.rows(
          locker, "SELECT COUNT(*) FROM ITEMS FOR UPDATE"));
      assertEquals("0A000", grouped.getSQLState(), grouped.getMessage());
      locker.rollback();
      final SQLException nowait = assertThrows(SQLException.class, () -> ShardFixture.rows(
          locker, "SELECT ID FROM ITEMS FOR UPDATE NOWAIT"));
      assertEquals("0A000", nowait.getSQLState(), nowait.getMessage());
      locker.rollback();
    }
    try (Connection c = connect()) {
      assertEquals(List.of("7"), ShardFixture.rows(c, "SELECT V FROM ITEMS WHERE ID = " + other));
    }
  }

  /** Waits until a statement waits for a lock on one of the fixture's shards, or ended. */
  private static final class LockWaits {
    private LockWaits() {
    }

    static void await(ShardFixture fixture, Future<?> statement) throws Exception {
      final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (!statement.isDone()) {
        for (String shard : fixture.shards().names()) {
          if (waiting(fixture, shard)) {
            return;
          }
        }
        if (System.nanoTime() > until) {
          fail("no statement waited for a lock");
        }
        Thread.onSpinWait();
      }
    }

    private static boolean waiting(ShardFixture fixture, String shard) throws SQLException {
      try (Connection c = fixture.shards().endpoint(shard).connect()) {
        final String product = c.getMetaData().getDatabaseProductName();
        if (product.startsWith("PostgreSQL")) {
          return !"0".equals(ShardFixture.rows(c,
              "SELECT COUNT(*) FROM pg_locks WHERE NOT granted").get(0));
        }
        if (product.startsWith("H2")) {
          return !"0".equals(ShardFixture.rows(c, "SELECT COUNT(*)"
              + " FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL").get(0));
        }
        // INNODB_TRX leaves out a wait on a row another transaction deleted; the engine's
        // status lists every one.
        return String.join(" ", ShardFixture.rows(c, "SHOW ENGINE INNODB STATUS"))
            .contains("FOR THIS LOCK TO BE GRANTED");
      }
    }
  }
}
