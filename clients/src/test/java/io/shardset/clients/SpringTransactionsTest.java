package io.shardset.clients;

import io.shardset.clients.FrameworkShards.Placement;
import io.shardset.clients.Pools.Target;
import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.simple.SimpleJdbcInsert;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

import static io.shardset.clients.FrameworkShards.nowhere;
import static io.shardset.clients.FrameworkShards.onOtherShard;
import static io.shardset.clients.FrameworkShards.onShardOtherThan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Spring's {@link TransactionTemplate} and {@link JdbcTemplate} over HikariCP over ShardSet,
 * embedded and through the server, on H2 and on PostgreSQL shards: a transaction reads what
 * it wrote, rolls back on an exception, batches inside it, {@code PROPAGATION_NESTED} undoes
 * only the inner part (a savepoint), and duplicate keys become {@link DuplicateKeyException}.
 * Each test checks the rows on the shards themselves. Spring needs no setting for ShardSet:
 * a {@link DataSourceTransactionManager} over the pool.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringTransactionsTest {
  private static final String INSERT =
      "INSERT INTO ACCOUNTS (ID, OWNER, BALANCE, VERSION) VALUES (?, ?, ?, 0)";

  private FrameworkShards.PerBackend shards;
  private final AtomicLong nextKeys = new AtomicLong(1_000);

  @BeforeAll void create(@TempDir Path folder) {
    shards = new FrameworkShards.PerBackend(folder);
  }

  @AfterAll void close() throws Exception {
    shards.close();
  }

  /** A block of 100 keys no other test writes. */
  private long keys() {
    return nextKeys.getAndAdd(100);
  }

  private static List<String> rows(JdbcTemplate jdbc, String sql, Object... args) {
    final ResultSetExtractor<List<String>> all = ShardFixture::rows;
    return jdbc.query(sql, all, args);
  }

  private static void insert(JdbcTemplate jdbc, long id, String owner, String balance) {
    assertEquals(1, jdbc.update(INSERT, id, owner, new BigDecimal(balance)));
  }

  private static TransactionTemplate required(DataSource pool) {
    return new TransactionTemplate(new DataSourceTransactionManager(pool));
  }

  private static TransactionTemplate nested(DataSource pool) {
    final TransactionTemplate nested = required(pool);
    nested.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
    return nested;
  }

  /**
   * The key each shard's identity gave a row, through Spring's {@link KeyHolder} (the column
   * named, as Spring's docs advise) and {@link SimpleJdbcInsert}, inside a transaction that
   * reads the row back by it; the shard's default fills the column left out. Embedded only:
   * Avatica's protocol has no generated keys.
   */
  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES"})
  void aKeyHolderGetsTheIdentityTheShardGave(Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final DataSource pool = fx.pool(Target.EMBEDDED);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long account = keys();
    final long other = onOtherShard(account, account + 1);
    final KeyHolder holder = new GeneratedKeyHolder();
    final long id = required(pool).execute(status -> {
      jdbc.update(connection -> {
        final PreparedStatement insert = connection.prepareStatement(
            "INSERT INTO EVENTS (ACCOUNT_ID) VALUES (?)", new String[] {"ID"});
        insert.setLong(1, account);
        return insert;
      }, holder);
      final long given = holder.getKey().longValue();
      assertEquals(List.of(given + ", none"),
          rows(jdbc, "SELECT ID, NOTE FROM EVENTS WHERE ACCOUNT_ID = ?", account));
      return given;
    });
    final Number second = new SimpleJdbcInsert(jdbc).withTableName("EVENTS")
        .usingColumns("ACCOUNT_ID", "NOTE").usingGeneratedKeyColumns("ID")
        .executeAndReturnKey(Map.of("ACCOUNT_ID", other, "NOTE", "second"));
    assertEquals(FrameworkShards.shardOf(account) + 1, id / FrameworkShards.IDENTITY_BLOCK);
    assertEquals(FrameworkShards.shardOf(other) + 1,
        second.longValue() / FrameworkShards.IDENTITY_BLOCK);
    assertEquals(new Placement().event(id, account, "none")
        .event(second.longValue(), other, "second").shards(), fx.events(account, account + 99));
  }

  /** Rows inserted on two shards are read back inside the transaction, by key and by an
   * aggregate over both shards, while the shards do not show them yet; the commit puts each
   * on its shard. */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aTransactionReadsWhatItInserted(Target target, Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final DataSource pool = fx.pool(target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long key = keys();
    final long other = onOtherShard(key, key + 1);
    required(pool).executeWithoutResult(status -> {
      insert(jdbc, key, "ann", "10.00");
      insert(jdbc, other, "bob", "20.50");
      assertEquals(List.of(key + ", ann, 10"),
          rows(jdbc, "SELECT ID, OWNER, BALANCE FROM ACCOUNTS WHERE ID = ?", key));
      assertEquals(List.of("2, 30.5"), rows(jdbc, "SELECT COUNT(*), SUM(BALANCE) FROM ACCOUNTS"
          + " WHERE ID BETWEEN ? AND ?", key, key + 99));
      assertEquals(nowhere(), fx.accounts(key, key + 99));
    });
    assertEquals(new Placement().account(key, "ann", "10", 0).account(other, "bob", "20.5", 0)
        .shards(), fx.accounts(key, key + 99));
  }

  /** An exception inside the template rolls back its inserts, its computed update of a
   * committed row and its delete, on every shard, after the transaction read them. */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void anExceptionRollsBackEverythingTheTransactionWrote(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final DataSource pool = fx.pool(target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long key = keys();
    final long other = onOtherShard(key, key + 1);
    final long third = onShardOtherThan(key + 1, key, other);
    insert(jdbc, key, "kept", "10.00");
    insert(jdbc, other, "also kept", "1.00");
    final IllegalStateException thrown = assertThrows(IllegalStateException.class,
        () -> required(pool).executeWithoutResult(status -> {
          insert(jdbc, third, "gone", "5.00");
          assertEquals(1, jdbc.update(
              "UPDATE ACCOUNTS SET BALANCE = BALANCE + 1, VERSION = VERSION + 1 WHERE ID = ?",
              key));
          assertEquals(1, jdbc.update("DELETE FROM ACCOUNTS WHERE ID = ?", other));
          assertEquals(List.of(key + ", 11, 1", third + ", 5, 0"), rows(jdbc,
              "SELECT ID, BALANCE, VERSION FROM ACCOUNTS WHERE ID BETWEEN ? AND ? ORDER BY ID",
              key, key + 99));
          throw new IllegalStateException("undo");
        }));
    assertEquals("undo", thrown.getMessage());
    assertEquals(new Placement().account(key, "kept", "10", 0)
        .account(other, "also kept", "1", 0).shards(), fx.accounts(key, key + 99));
  }

  /** {@link JdbcTemplate#batchUpdate} of inserts on every shard and then of computed updates
   * of the same rows, in one transaction that reads the result before it commits. */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void batchesInATransaction(Target target, Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final DataSource pool = fx.pool(target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long key = keys();
    required(pool).executeWithoutResult(status -> {
      assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1}, jdbc.batchUpdate(INSERT, List.of(
          new Object[] {key, "a", new BigDecimal("1.00")},
          new Object[] {key + 1, "b", new BigDecimal("2.00")},
          new Object[] {key + 2, "c", new BigDecimal("3.00")},
          new Object[] {key + 3, "d", new BigDecimal("4.00")},
          new Object[] {key + 4, "e", new BigDecimal("5.00")},
          new Object[] {key + 5, "f", new BigDecimal("6.00")})));
      assertArrayEquals(new int[] {1, 1, 1}, jdbc.batchUpdate("UPDATE ACCOUNTS"
          + " SET BALANCE = BALANCE + ?, VERSION = VERSION + 1 WHERE ID = ?", List.of(
              new Object[] {new BigDecimal("0.25"), key},
              new Object[] {new BigDecimal("0.25"), key + 3},
              new Object[] {new BigDecimal("0.25"), key + 5})));
      assertEquals(List.of("6, 21.75, 3"), rows(jdbc, "SELECT COUNT(*), SUM(BALANCE),"
          + " SUM(VERSION) FROM ACCOUNTS WHERE ID BETWEEN ? AND ?", key, key + 99));
    });
    assertEquals(new Placement().account(key, "a", "1.25", 1).account(key + 1, "b", "2", 0)
        .account(key + 2, "c", "3", 0).account(key + 3, "d", "4.25", 1)
        .account(key + 4, "e", "5", 0).account(key + 5, "f", "6.25", 1).shards(),
        fx.accounts(key, key + 99));
  }

  /**
   * {@code PROPAGATION_NESTED} inside a transaction: a nested part that completes stays, one
   * that throws is undone back to its savepoint (its insert on another shard and its update
   * of the outer part's row), and the outer transaction reads on and commits the rest.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aNestedTransactionThatFailsUndoesOnlyItsOwnPart(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final DataSource pool = fx.pool(target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long key = keys();
    final long kept = onOtherShard(key, key + 1);
    final long undone = onShardOtherThan(kept + 1, key, kept);
    final long last = kept + 50;
    required(pool).executeWithoutResult(status -> {
      insert(jdbc, key, "outer", "10.00");
      nested(pool).executeWithoutResult(inner -> insert(jdbc, kept, "inner kept", "1.00"));
      final IllegalStateException thrown = assertThrows(IllegalStateException.class,
          () -> nested(pool).executeWithoutResult(inner -> {
            insert(jdbc, undone, "inner undone", "2.00");
            assertEquals(1, jdbc.update("UPDATE ACCOUNTS SET BALANCE = BALANCE + 100"
                + " WHERE ID = ?", key));
            assertEquals(List.of(key + ", 110", kept + ", 1", undone + ", 2"), rows(jdbc,
                "SELECT ID, BALANCE FROM ACCOUNTS WHERE ID BETWEEN ? AND ? ORDER BY ID", key,
                key + 99));
            throw new IllegalStateException("inner");
          }));
      assertEquals("inner", thrown.getMessage());
      assertEquals(List.of(key + ", 10", kept + ", 1"), rows(jdbc,
          "SELECT ID, BALANCE FROM ACCOUNTS WHERE ID BETWEEN ? AND ? ORDER BY ID", key,
          key + 99));
      insert(jdbc, last, "outer again", "3.00");
    });
    assertEquals(new Placement().account(key, "outer", "10", 0)
        .account(kept, "inner kept", "1", 0).account(last, "outer again", "3", 0).shards(),
        fx.accounts(key, key + 99));
  }

  /**
   * A duplicate key is a {@link DuplicateKeyException} in autocommit mode, where the row stays
   * as it was, and inside a nested transaction, which its savepoint undoes so that the outer
   * transaction goes on and commits.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aDuplicateKeyIsADuplicateKeyException(Target target, Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final DataSource pool = fx.pool(target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long key = keys();
    final long other = onOtherShard(key, key + 1);
    insert(jdbc, key, "first", "1.00");
    assertThrows(DuplicateKeyException.class, () -> insert(jdbc, key, "again", "2.00"));
    required(pool).executeWithoutResult(status -> {
      insert(jdbc, other, "before", "3.00");
      assertThrows(DuplicateKeyException.class, () -> nested(pool).executeWithoutResult(
          inner -> insert(jdbc, key, "again", "4.00")));
      insert(jdbc, other + 1, "after", "5.00");
    });
    assertEquals(new Placement().account(key, "first", "1", 0).account(other, "before", "3", 0)
        .account(other + 1, "after", "5", 0).shards(), fx.accounts(key, key + 99));
  }

  /**
   * A batch with a duplicate key is a {@link DuplicateKeyException}: in autocommit mode none
   * of its rows is written; inside a nested transaction its savepoint undoes it and the outer
   * transaction commits its own rows.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aBatchWithADuplicateKeyIsADuplicateKeyException(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final DataSource pool = fx.pool(target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long key = keys();
    insert(jdbc, key, "first", "1.00");
    final List<Object[]> batch = List.of(new Object[] {key + 1, "b", BigDecimal.ONE},
        new Object[] {key, "again", BigDecimal.ONE},
        new Object[] {key + 2, "c", BigDecimal.ONE});
    assertThrows(DuplicateKeyException.class, () -> jdbc.batchUpdate(INSERT, batch));
    assertEquals(new Placement().account(key, "first", "1", 0).shards(),
        fx.accounts(key, key + 99));
    required(pool).executeWithoutResult(status -> {
      insert(jdbc, key + 3, "before", "3.00");
      assertThrows(DuplicateKeyException.class, () -> nested(pool).executeWithoutResult(
          inner -> jdbc.batchUpdate(INSERT, batch)));
      insert(jdbc, key + 4, "after", "4.00");
    });
    assertEquals(new Placement().account(key, "first", "1", 0)
        .account(key + 3, "before", "3", 0).account(key + 4, "after", "4", 0).shards(),
        fx.accounts(key, key + 99));
  }
}
