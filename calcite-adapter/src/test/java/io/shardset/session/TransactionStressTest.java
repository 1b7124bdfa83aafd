package io.shardset.session;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.LongTest;
import io.shardset.testing.ShardFixture;
import io.shardset.transaction.TransactionCoordinator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Sixteen sessions, each in a loop of transactions, over twelve hot rows of ACCOUNTS on four
 * PostgreSQL shards for a fixed time: transfers between two rows on different shards (two
 * row-by-row updates of BALANCE, in random order, so that transactions wait for each other's
 * locks across shards and deadlock there), increments of HITS, and moves of a row to another
 * shard by a change of its key ID, while its ACCOUNT number stays. Rows are found by ID, and
 * now and then by ACCOUNT (a read of every shard). A transaction that fails with 40001, 40P01
 * or 55P03 (or 57014, see {@link #CANCELED}), or whose update finds no row (moved away; see
 * {@link RowMoved}), rolls back and is tried again. At the end every session has finished, ShardSet has ended at least
 * one deadlock across shards, the balances still add up to what they started with, HITS adds
 * up to the increments that committed, and each ACCOUNT is on exactly one shard, the one its
 * ID hashes to, under the ID its last committed move gave it; no transaction is left prepared
 * on a shard. The long tier runs it for a minute.
 */
class TransactionStressTest {
  private static final int THREADS = 16;
  private static final int ACCOUNTS = 12;
  private static final BigDecimal OPENING_BALANCE = new BigDecimal("1000.00");
  /** How long past the run's end a session may take to finish its transaction. */
  private static final Duration GRACE = Duration.ofMinutes(2);
  /** How often one transaction is tried before the session gives up on it. */
  private static final int ATTEMPTS = 100;
  /**
   * SQLState of a statement canceled: what the victim of a deadlock across shards gets, in
   * place of 40P01, when it waited in the locking read of a row-by-row UPDATE (see
   * {@link #aDeadlockVictimWaitingInARowByRowUpdateFailsWith40P01}).
   */
  private static final String CANCELED = "57014";
  /** The failures a session rolls back on and tries again. */
  private static final Set<String> RETRIED = Set.of("40001", "40P01", "55P03", CANCELED);

  /**
   * ShardSet's connections per shard, fewer than the sessions (to stay well within the
   * server's 100 connections, which other tests share): a transaction may wait for one while it
   * holds locks on another shard, a wait the deadlock check cannot see, which the lock timeout
   * ends (55P03).
   */
  private static final int POOL_SIZE = 12;

  @TempDir Path logFolder;
  private ShardFixture fixture;
  private final ExecutorService threads = Executors.newFixedThreadPool(THREADS);

  @AfterEach void close() throws SQLException {
    threads.shutdownNow();
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test void transfersIncrementsAndMovesForTenSeconds() throws Exception {
    stress(Duration.ofSeconds(10));
  }

  @LongTest @Test void transfersIncrementsAndMovesForAMinute() throws Exception {
    stress(Duration.ofSeconds(60));
  }

  /**
   * The victim of a deadlock across shards fails with 40P01 whatever statement it waited in,
   * so that its client knows to retry: here both wait in the locking read of a row-by-row
   * UPDATE (BALANCE is computed above the shards).
   */
  @ParameterizedTest @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aDeadlockVictimWaitingInARowByRowUpdateFailsWith40P01(Backend backend) throws Exception {
    final String model = open(backend);
    final long x = 1;
    final long y = HashedItems.onOtherShard(x, 2);
    try (Connection setUp = Connector.SHARDSET.open(model);
         Statement s = setUp.createStatement()) {
      s.executeUpdate("INSERT INTO ACCOUNTS VALUES (" + x + ", 1, 100, 0), (" + y
          + ", 2, 100, 0)");
    }
    try (Connection older = Connector.SHARDSET.open(model);
         Connection younger = Connector.SHARDSET.open(model);
         Statement so = older.createStatement(); Statement sy = younger.createStatement()) {
      older.setAutoCommit(false);
      younger.setAutoCommit(false);
      so.executeUpdate("UPDATE ACCOUNTS SET BALANCE = BALANCE - 1 WHERE ID = " + x);
      sy.executeUpdate("UPDATE ACCOUNTS SET BALANCE = BALANCE + 1 WHERE ID = " + y);
      final Future<Integer> olderWaits = threads.submit(() -> so.executeUpdate(
          "UPDATE ACCOUNTS SET BALANCE = BALANCE + 1 WHERE ID = " + y));
      final Future<Integer> youngerWaits = threads.submit(() -> sy.executeUpdate(
          "UPDATE ACCOUNTS SET BALANCE = BALANCE - 1 WHERE ID = " + x));
      final SQLException victim;
      try {
        youngerWaits.get(GRACE.toSeconds(), TimeUnit.SECONDS);
        throw new AssertionError("the younger transaction was not chosen");
      } catch (ExecutionException e) {
        victim = assertInstanceOf(SQLException.class, e.getCause());
      }
      younger.rollback();
      assertEquals(1, olderWaits.get(GRACE.toSeconds(), TimeUnit.SECONDS));
      older.commit();
      assertEquals(1, ShardFixture.schema(older).table("ACCOUNTS").coordinator()
          .deadlocksEnded());
      assertEquals("40P01", victim.getSQLState(), victim.getMessage());
    }
  }

  /**
   * An update that finds its row by another column than the key finds it when another
   * transaction moves the row to another shard meanwhile, as the unsharded database finds the
   * new version of a row it waited for (or fails with 40001, as a change by key of a row moved
   * away does): it must not report that it changed nothing.
   */
  @Disabled("Known difference (docs/writing.md, Limits): 'UPDATE ACCOUNTS SET BALANCE ="
      + " BALANCE + 1 WHERE ACCOUNT = 7' (row by row; the pushed 'SET HITS = HITS + 1' alike),"
      + " waiting for the lock of a transaction that moves the row ('SET ID = <id on another"
      + " shard>') and then commits, succeeds with update count 0 and leaves BALANCE at 100,"
      + " where unsharded PostgreSQL updates the moved row (count 1, BALANCE 101) and a"
      + " partitioned table fails with 40001: the read of the old shard skips the deleted row,"
      + " the read of the new shard ran before the insert committed")
  @Test void anUpdateByAnotherColumnFindsARowMovedWhileItWaited() throws Exception {
    final String model = open(Backend.POSTGRES);
    final long id = 1;
    final long moved = HashedItems.onOtherShard(id, 2);
    try (Connection setUp = Connector.SHARDSET.open(model);
         Statement s = setUp.createStatement()) {
      s.executeUpdate("INSERT INTO ACCOUNTS VALUES (" + id + ", 7, 100, 0)");
    }
    try (Connection mover = Connector.SHARDSET.open(model);
         Connection updater = Connector.SHARDSET.open(model);
         Statement sm = mover.createStatement(); Statement su = updater.createStatement()) {
      mover.setAutoCommit(false);
      sm.executeUpdate("UPDATE ACCOUNTS SET ID = " + moved + " WHERE ID = " + id);
      final Future<Integer> update = threads.submit(() -> su.executeUpdate(
          "UPDATE ACCOUNTS SET BALANCE = BALANCE + 1 WHERE ACCOUNT = 7"));
      awaitLockWait(update);
      mover.commit();
      final String outcome;
      try {
        outcome = "count " + update.get(GRACE.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        final SQLException failure = assertInstanceOf(SQLException.class, e.getCause());
        assertEquals("40001", failure.getSQLState(), failure.getMessage());
        return;
      }
      assertEquals("count 1, then [" + moved + ", 7, 101, 0]", outcome + ", then "
          + ShardFixture.rows(updater, "SELECT * FROM ACCOUNTS"));
    }
  }

  /** Waits until a statement waits for a lock on one of the PostgreSQL shards, or ended. */
  private void awaitLockWait(Future<?> statement) throws SQLException {
    final long until = System.nanoTime() + GRACE.toNanos();
    while (!statement.isDone()) {
      for (String shard : fixture.shards().names()) {
        try (Connection c = fixture.shards().endpoint(shard).connect()) {
          if (!"0".equals(ShardFixture.rows(c,
              "SELECT COUNT(*) FROM pg_locks WHERE NOT granted").get(0))) {
            return;
          }
        }
      }
      if (System.nanoTime() > until) {
        fail("the update did not wait for the move's lock");
      }
      Thread.onSpinWait();
    }
  }

  /** Creates the shards and returns the model. */
  private String open(Backend backend) throws SQLException {
    fixture = ShardFixture.create(backend, HashedItems.SHARDS,
        "CREATE TABLE ACCOUNTS (ID BIGINT PRIMARY KEY, ACCOUNT INTEGER NOT NULL,"
            + " BALANCE DECIMAL(14, 2) NOT NULL, HITS BIGINT NOT NULL)");
    return model();
  }

  private void stress(Duration length) throws Exception {
    final String model = open(Backend.POSTGRES);
    final Accounts accounts = new Accounts();
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      for (int account = 0; account < ACCOUNTS; account++) {
        s.executeUpdate("INSERT INTO ACCOUNTS VALUES (" + accounts.id(account) + ", " + account
            + ", " + OPENING_BALANCE + ", 0)");
      }
      // A transfer's updates compute BALANCE above the shards, row by row, with locks.
      final String plan = String.join("\n", ShardFixture.rows(c, "EXPLAIN PLAN FOR UPDATE"
          + " ACCOUNTS SET BALANCE = BALANCE - 5 WHERE ID = " + accounts.id(0)));
      assertTrue(plan.contains("EnumerableShardTableModify"), plan);
    }
    // Open for the whole run: the model's coordinator lives while a connection uses it.
    try (Connection observer = Connector.SHARDSET.open(model)) {
      final TransactionCoordinator coordinator =
          ShardFixture.schema(observer).table("ACCOUNTS").coordinator();
      final long end = System.nanoTime() + length.toNanos();
      final List<Future<Tally>> sessions = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        final long seed = 7_000 + t;
        sessions.add(threads.submit(() -> new Session(model, accounts, new Random(seed), end)
            .run()));
      }
      final long deadline = end + GRACE.toNanos();
      final Tally total = new Tally();
      for (int t = 0; t < THREADS; t++) {
        try {
          total.add(sessions.get(t).get(Math.max(0, deadline - System.nanoTime()),
              TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
          fail("session " + t + " did not finish within " + GRACE + " after the run's "
              + length + ": a transaction hangs");
        } catch (ExecutionException e) {
          throw new AssertionError("session " + t + " failed", e.getCause());
        }
      }
      final long ended = coordinator.deadlocksEnded();
      System.out.printf(Locale.ROOT, "TransactionStressTest: %s, %d threads: %d transactions"
          + " committed (%d transfers, %d increments, %d moves); retried: %d on 40P01, %d on"
          + " 57014, %d on 40001, %d on 55P03, %d on an ID moved away, %d on a number whose"
          + " row was moved while read; deadlocks across shards ended by ShardSet: %d%n",
          length, THREADS, total.committed, total.transfers, total.increments, total.moves,
          total.deadlocks, total.canceled, total.serialization, total.lockTimeouts,
          total.moved, total.missedByNumber, ended);
      assertEquals(List.of(), total.unexpected, "failures no retry covers");
      assertTrue(ended > 0, "no deadlock across shards was ended by ShardSet ("
          + total.deadlocks + " transactions failed with 40P01)");
      assertEquals(List.of(OPENING_BALANCE.multiply(BigDecimal.valueOf(ACCOUNTS))
          .stripTrailingZeros().toPlainString() + ", " + total.increments + ", " + ACCOUNTS),
          ShardFixture.rows(observer, "SELECT SUM(BALANCE), SUM(HITS), COUNT(*) FROM ACCOUNTS"),
          "balances, hits and rows through ShardSet");
      checkShards(accounts, total);
    }
  }

  /**
   * The model: ACCOUNTS hashed on ID over the fixture's shards, reached directly rather than
   * through the fixture's counting pools (eight connections a shard, which ShardSet's pool and
   * the deadlock check's monitor connection would share: with sixteen sessions the pool keeps
   * all eight and the check never reads the shard's lock waits). Each shard's lock waits end
   * after 3 s; the deadlock check runs every 100 ms.
   */
  private String model() {
    final StringJoiner shards = new StringJoiner(",\n    ");
    for (String name : fixture.shards().names()) {
      final ShardConnectionSettings shard = fixture.shards().settings(name);
      shards.add("{\"name\": \"" + name + "\", \"jdbcUrl\": \"" + shard.jdbcUrl()
          + "\", \"jdbcUser\": \"" + shard.user() + "\", \"jdbcPassword\": \"\","
          + " \"poolSize\": " + POOL_SIZE + ", \"lockTimeout\": 3000}");
    }
    return "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{\n"
        + "  \"name\": \"S\", \"type\": \"custom\",\n"
        + "  \"factory\": \"io.shardset.calcite.ShardSchemaFactory\",\n"
        + "  \"operand\": {\"shards\": [\n    " + shards + "],\n"
        + "  \"transactions\": {\"log\": \"" + logFolder + "\", \"recoveryIntervalSeconds\":"
        + " 86400, \"deadlockCheckMillis\": 100},\n"
        + "  \"chunks\": 60, \"tables\": [{\"name\": \"ACCOUNTS\", \"method\":"
        + " \"consistent-hash\", \"shardKey\": [\"ID\"]}]}}]}";
  }

  /** On the shards: each account once, under its last ID, on the shard the ID hashes to. */
  private void checkShards(Accounts accounts, Tally total) throws SQLException {
    final List<String> placed = new ArrayList<>();
    final List<String> expected = new ArrayList<>();
    BigDecimal balances = BigDecimal.ZERO;
    long hits = 0;
    for (int shard = 0; shard < HashedItems.SHARDS; shard++) {
      try (Connection c = fixture.shards().endpoint("s" + shard).connect();
           Statement s = c.createStatement()) {
        try (ResultSet rs = s.executeQuery("SELECT ID, ACCOUNT, BALANCE, HITS FROM ACCOUNTS")) {
          while (rs.next()) {
            placed.add("account " + rs.getInt(2) + ": ID " + rs.getLong(1) + " on s" + shard);
            balances = balances.add(rs.getBigDecimal(3));
            hits += rs.getLong(4);
          }
        }
        assertEquals(List.of("0"), ShardFixture.rows(c, "SELECT COUNT(*) FROM pg_prepared_xacts"
            + " WHERE database = current_database()"), "transactions left prepared on s" + shard);
      }
    }
    for (int account = 0; account < ACCOUNTS; account++) {
      final long id = accounts.id(account);
      expected.add("account " + account + ": ID " + id + " on s" + HashedItems.shardOf(id));
    }
    assertEquals(ShardFixture.sorted(expected), ShardFixture.sorted(placed),
        "the accounts on the shards");
    assertEquals(0, OPENING_BALANCE.multiply(BigDecimal.valueOf(ACCOUNTS)).compareTo(balances),
        "the balances on the shards add up to " + balances);
    assertEquals(total.increments, hits, "the hits on the shards");
  }

  /** The ID each account's row has now, as the last committed move left it. */
  private static final class Accounts {
    private final AtomicLongArray ids = new AtomicLongArray(ACCOUNTS);
    /** New IDs for moves, never used twice. */
    private final AtomicLong next = new AtomicLong(1_000);

    Accounts() {
      for (int account = 0; account < ACCOUNTS; account++) {
        ids.set(account, account + 1);
      }
    }

    long id(int account) {
      return ids.get(account);
    }

    /** A key never used before whose row lives on another shard than {@code id}'s. */
    long freshIdElsewhere(long id) {
      long fresh;
      do {
        fresh = next.getAndIncrement();
      } while (HashedItems.shardOf(fresh) == HashedItems.shardOf(id));
      return fresh;
    }

    /** Records a committed move; only the session that moved the row knows the new ID. */
    boolean moved(int account, long from, long to) {
      return ids.compareAndSet(account, from, to);
    }
  }

  /** What sessions counted. */
  private static final class Tally {
    long committed;
    long transfers;
    long increments;
    long moves;
    long deadlocks;
    long serialization;
    long lockTimeouts;
    long canceled;
    long moved;
    long missedByNumber;
    final List<String> unexpected = new ArrayList<>();

    void add(Tally other) {
      committed += other.committed;
      transfers += other.transfers;
      increments += other.increments;
      moves += other.moves;
      deadlocks += other.deadlocks;
      serialization += other.serialization;
      lockTimeouts += other.lockTimeouts;
      canceled += other.canceled;
      moved += other.moved;
      missedByNumber += other.missedByNumber;
      unexpected.addAll(other.unexpected);
    }
  }

  /**
   * An update that changed no row (or more than one): a row found by its ID that another
   * transaction moved away since this one looked the ID up, or a row found by its number that
   * was moved to another shard while the update waited for it (see
   * {@link #anUpdateByAnotherColumnFindsARowMovedWhileItWaited}).
   */
  private static final class RowMoved extends Exception {
    private static final long serialVersionUID = 1L;
    final int count;
    final boolean byNumber;

    RowMoved(String statement, int count) {
      super(statement + " changed " + count + " rows, not 1");
      this.count = count;
      this.byNumber = statement.contains("ACCOUNT = ?");
    }
  }

  /** One client: a connection, its prepared statements and its loop of transactions. */
  private static final class Session {
    private final String model;
    private final Accounts accounts;
    private final Random random;
    private final long end;
    private final Tally tally = new Tally();
    private final Map<String, PreparedStatement> prepared = new HashMap<>();
    private Connection connection;

    Session(String model, Accounts accounts, Random random, long end) {
      this.model = model;
      this.accounts = accounts;
      this.random = random;
      this.end = end;
    }

    Tally run() throws SQLException {
      try (Connection c = Connector.SHARDSET.open(model)) {
        connection = c;
        c.setAutoCommit(false);
        while (System.nanoTime() < end) {
          transaction(operations());
        }
        for (PreparedStatement p : prepared.values()) {
          p.close();
        }
      }
      return tally;
    }

    /** One to three operations: 0 a transfer, 1 an increment, 2 a move. */
    private int[] operations() {
      final int[] operations = new int[1 + random.nextInt(3)];
      for (int i = 0; i < operations.length; i++) {
        final int pick = random.nextInt(10);
        operations[i] = pick < 5 ? 0 : pick < 8 ? 1 : 2;
      }
      return operations;
    }

    /**
     * Runs one transaction until it commits, fails for a reason no retry covers, or the run is
     * over (then it stays rolled back).
     */
    private void transaction(int[] operations) throws SQLException {
      for (int attempt = 0; attempt == 0 || System.nanoTime() < end; attempt++) {
        if (attempt == ATTEMPTS) {
          tally.unexpected.add("a transaction was tried " + ATTEMPTS + " times");
          return;
        }
        // The IDs this transaction moved rows to, by account, until it commits.
        final Map<Integer, long[]> moves = new HashMap<>();
        int increments = 0;
        int transfers = 0;
        try {
          for (int operation : operations) {
            switch (operation) {
            case 0:
              transfer(moves);
              transfers++;
              break;
            case 1:
              update("UPDATE ACCOUNTS SET HITS = HITS + 1 WHERE", random.nextInt(ACCOUNTS),
                  moves);
              increments++;
              break;
            default:
              move(moves);
              break;
            }
          }
          connection.commit();
        } catch (SQLException e) {
          connection.rollback();
          if (!retried(e)) {
            tally.unexpected.add(e.getSQLState() + " " + e.getMessage());
            return;
          }
          continue;
        } catch (RowMoved e) {
          connection.rollback();
          if (e.count > 1) {
            // One account's number names one row: more is a row copied.
            tally.unexpected.add(e.getMessage());
            return;
          }
          if (e.byNumber) {
            tally.missedByNumber++;
          } else {
            tally.moved++;
          }
          continue;
        }
        tally.committed++;
        tally.transfers += transfers;
        tally.increments += increments;
        for (Map.Entry<Integer, long[]> move : moves.entrySet()) {
          final long[] fromTo = move.getValue();
          if (!accounts.moved(move.getKey(), fromTo[0], fromTo[1])) {
            tally.unexpected.add("account " + move.getKey() + " moved from " + fromTo[0]
                + " to " + fromTo[1] + ", but its ID was " + accounts.id(move.getKey()));
          }
          tally.moves++;
        }
        return;
      }
    }

    private boolean retried(SQLException e) {
      final String state = e.getSQLState();
      if (!RETRIED.contains(state)) {
        return false;
      }
      switch (state) {
      case "40P01":
        tally.deadlocks++;
        break;
      case "40001":
        tally.serialization++;
        break;
      case CANCELED:
        tally.canceled++;
        break;
      default:
        tally.lockTimeouts++;
        break;
      }
      return true;
    }

    /** The row's ID in this transaction: its own move's, else the last committed one's. */
    private long id(int account, Map<Integer, long[]> moves) {
      final long[] moved = moves.get(account);
      return moved == null ? accounts.id(account) : moved[1];
    }

    /** Moves money between two accounts whose rows are on different shards. */
    private void transfer(Map<Integer, long[]> moves) throws SQLException, RowMoved {
      final int from = random.nextInt(ACCOUNTS);
      int to = random.nextInt(ACCOUNTS);
      for (int tries = 0; to == from || tries < 20 && sameShard(from, to, moves); tries++) {
        to = random.nextInt(ACCOUNTS);
      }
      final BigDecimal amount = BigDecimal.valueOf(1 + random.nextInt(5000), 2);
      if (random.nextBoolean()) {
        update("UPDATE ACCOUNTS SET BALANCE = BALANCE - ? WHERE", amount, from, moves);
        update("UPDATE ACCOUNTS SET BALANCE = BALANCE + ? WHERE", amount, to, moves);
      } else {
        update("UPDATE ACCOUNTS SET BALANCE = BALANCE + ? WHERE", amount, to, moves);
        update("UPDATE ACCOUNTS SET BALANCE = BALANCE - ? WHERE", amount, from, moves);
      }
    }

    private boolean sameShard(int one, int other, Map<Integer, long[]> moves) {
      return HashedItems.shardOf(id(one, moves)) == HashedItems.shardOf(id(other, moves));
    }

    /** Gives an account's row a new ID, on another shard. */
    private void move(Map<Integer, long[]> moves) throws SQLException, RowMoved {
      final int account = random.nextInt(ACCOUNTS);
      final long from = id(account, moves);
      final long to = accounts.freshIdElsewhere(from);
      run("UPDATE ACCOUNTS SET ID = ? WHERE ID = ?", to, from);
      final long[] earlier = moves.get(account);
      moves.put(account, new long[] {earlier == null ? from : earlier[0], to});
    }

    /**
     * Runs {@code change} (ending in WHERE) on one account's row, found by its key mostly,
     * sometimes by its number (a read of every shard).
     */
    private void update(String change, int account, Map<Integer, long[]> moves)
        throws SQLException, RowMoved {
      if (random.nextInt(4) == 0) {
        run(change + " ACCOUNT = ?", account);
      } else {
        run(change + " ID = ?", id(account, moves));
      }
    }

    private void update(String change, BigDecimal amount, int account,
        Map<Integer, long[]> moves) throws SQLException, RowMoved {
      if (random.nextInt(4) == 0) {
        run(change + " ACCOUNT = ?", amount, account);
      } else {
        run(change + " ID = ?", amount, id(account, moves));
      }
    }

    /** Runs an update that must change exactly one row. */
    private void run(String sql, Object... parameters) throws SQLException, RowMoved {
      PreparedStatement p = prepared.get(sql);
      if (p == null) {
        p = connection.prepareStatement(sql);
        prepared.put(sql, p);
      }
      for (int i = 0; i < parameters.length; i++) {
        p.setObject(i + 1, parameters[i]);
      }
      final int count = p.executeUpdate();
      if (count != 1) {
        throw new RowMoved(sql + " " + List.of(parameters), count);
      }
    }
  }
}
