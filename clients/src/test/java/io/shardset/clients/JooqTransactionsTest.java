package io.shardset.clients;

import io.shardset.clients.FrameworkShards.Placement;
import io.shardset.clients.Pools.Target;
import io.shardset.testing.Backend;

import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.TableField;
import org.jooq.UniqueKey;
import org.jooq.conf.Settings;
import org.jooq.exception.DataChangedException;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultTransactionProvider;
import org.jooq.impl.Internal;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;
import org.jooq.impl.UpdatableRecordImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

import static io.shardset.clients.FrameworkShards.nowhere;
import static io.shardset.clients.FrameworkShards.onOtherShard;
import static io.shardset.clients.FrameworkShards.onShardOtherThan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * jOOQ's records and transactions over HikariCP over ShardSet, embedded and through the
 * server, on H2 and on PostgreSQL shards: {@code UpdatableRecord} store (insert), refresh,
 * change and store (update) and delete inside {@code transaction(...)}, which reads its own
 * writes; optimistic locking with a version field, where a stale record fails with
 * {@link DataChangedException}; and a nested {@code transaction(...)} that fails and is
 * rolled back to its savepoint while the outer one commits. Each test checks the rows on the
 * shards themselves.
 *
 * <p>What jOOQ needs for ShardSet, in its {@link DefaultConfiguration}:
 * <ul>
 *   <li>the dialect {@link SQLDialect#POSTGRES} (plain SQL; DEFAULT works too but logs that
 *   it is unsupported);</li>
 *   <li>{@code Settings.withReturnIdentityOnUpdatableRecord(false)}: by default
 *   {@code store()} of a new record fetches the inserted key back, with
 *   {@code INSERT ... RETURNING} (POSTGRES, DEFAULT) or {@code SELECT ... FROM FINAL TABLE
 *   (INSERT ...)} (H2), which ShardSet does not parse; with assigned keys nothing needs to
 *   come back;</li>
 *   <li>{@code Settings.withExecuteWithOptimisticLocking(true)} and a table whose
 *   {@code getRecordVersion()} names the version column, for optimistic locking;</li>
 *   <li>a {@link DefaultTransactionProvider} with {@code nested = true} (jOOQ's default), so
 *   that a nested {@code transaction(...)} sets a savepoint.</li>
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JooqTransactionsTest {
  private static final Accounts ACCOUNTS = Accounts.ACCOUNTS;

  private FrameworkShards.PerBackend shards;
  private final AtomicLong nextKeys = new AtomicLong(2_000);

  @BeforeAll void create(@TempDir Path folder) {
    shards = new FrameworkShards.PerBackend(folder);
  }

  @AfterAll void close() throws Exception {
    shards.close();
  }

  /** ACCOUNTS as a hand-written jOOQ table, as code generation would write it: primary key
   * ID, record version VERSION. */
  static final class Accounts extends TableImpl<AccountRecord> {
    static final Accounts ACCOUNTS = new Accounts();

    final TableField<AccountRecord, Long> id =
        createField(DSL.name("ID"), SQLDataType.BIGINT.nullable(false), this);
    final TableField<AccountRecord, String> owner =
        createField(DSL.name("OWNER"), SQLDataType.VARCHAR(40).nullable(false), this);
    final TableField<AccountRecord, BigDecimal> balance =
        createField(DSL.name("BALANCE"), SQLDataType.DECIMAL(12, 2).nullable(false), this);
    final TableField<AccountRecord, Integer> version =
        createField(DSL.name("VERSION"), SQLDataType.INTEGER.nullable(false), this);

    private Accounts() {
      super(DSL.name("ACCOUNTS"));
    }

    @Override public Class<AccountRecord> getRecordType() {
      return AccountRecord.class;
    }

    @Override public UniqueKey<AccountRecord> getPrimaryKey() {
      return Internal.createUniqueKey(this, DSL.name("ACCOUNTS_PK"), id);
    }

    @Override public TableField<AccountRecord, Integer> getRecordVersion() {
      return version;
    }
  }

  /** A row of ACCOUNTS. */
  static final class AccountRecord extends UpdatableRecordImpl<AccountRecord> {
    AccountRecord() {
      super(Accounts.ACCOUNTS);
    }
  }

  /** A block of 100 keys no other test writes. */
  private long keys() {
    return nextKeys.getAndAdd(100);
  }

  /** jOOQ over the pool, configured as the class comment says. */
  private static DSLContext jooq(DataSource pool) {
    final ConnectionProvider connections = new DataSourceConnectionProvider(pool);
    return DSL.using(new DefaultConfiguration()
        .set(SQLDialect.POSTGRES)
        .set(connections)
        .set(new DefaultTransactionProvider(connections, true))
        .set(new Settings()
            .withReturnIdentityOnUpdatableRecord(false)
            .withExecuteWithOptimisticLocking(true)));
  }

  private static AccountRecord newAccount(DSLContext jooq, long id, String owner,
      String balance) {
    final AccountRecord account = jooq.newRecord(ACCOUNTS);
    account.set(ACCOUNTS.id, id);
    account.set(ACCOUNTS.owner, owner);
    account.set(ACCOUNTS.balance, new BigDecimal(balance));
    return account;
  }

  private static AccountRecord fetch(DSLContext jooq, long id) {
    return jooq.selectFrom(ACCOUNTS).where(ACCOUNTS.id.eq(id)).fetchSingle();
  }

  /** A record as {@code ID, OWNER, BALANCE, VERSION}. */
  private static String values(AccountRecord account) {
    return account.get(ACCOUNTS.id) + ", " + account.get(ACCOUNTS.owner) + ", "
        + account.get(ACCOUNTS.balance).toPlainString() + ", " + account.get(ACCOUNTS.version);
  }

  /**
   * Inside one {@code transaction(...)}: {@code store()} inserts records on three shards
   * (jOOQ sets the version to 1), {@code refresh()} reads one back and drops an unsaved
   * change, a change and {@code store()} update it (version 2, read back by a query), and
   * {@code delete()} removes another; the shards show nothing before the commit, and then
   * the two rows left, each on its shard.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void recordsAreStoredRefreshedUpdatedAndDeletedInATransaction(Target target,
      Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final long key = keys();
    final long other = onOtherShard(key, key + 1);
    final long third = onShardOtherThan(key + 1, key, other);
    jooq(fx.pool(target)).transaction(configuration -> {
      final DSLContext tx = DSL.using(configuration);
      final AccountRecord ann = newAccount(tx, key, "ann", "10.00");
      assertEquals(1, ann.store());
      assertEquals(1, newAccount(tx, other, "bob", "20.00").store());
      final AccountRecord gone = newAccount(tx, third, "gone", "30.00");
      assertEquals(1, gone.store());
      assertEquals(1, ann.get(ACCOUNTS.version));
      ann.set(ACCOUNTS.owner, "not saved");
      ann.refresh();
      assertEquals(key + ", ann, 10.00, 1", values(ann));
      ann.set(ACCOUNTS.balance, new BigDecimal("11.50"));
      assertEquals(1, ann.store());
      assertEquals(key + ", ann, 11.50, 2", values(fetch(tx, key)));
      assertEquals(1, gone.delete());
      assertEquals(2, tx.fetchCount(ACCOUNTS, ACCOUNTS.id.between(key, key + 99)));
      assertEquals(nowhere(), fx.accounts(key, key + 99));
    });
    assertEquals(new Placement().account(key, "ann", "11.5", 2).account(other, "bob", "20", 1)
        .shards(), fx.accounts(key, key + 99));
  }

  /**
   * Optimistic locking: a transaction fetches a committed record, changes and stores it and
   * reads the new version back; a copy fetched before that is stale, so storing or deleting
   * it fails with {@link DataChangedException} and the row keeps the transaction's values.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aStaleRecordFailsWithDataChangedException(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final DSLContext jooq = jooq(fx.pool(target));
    final long key = keys();
    assertEquals(1, newAccount(jooq, key, "ann", "10.00").store());
    final AccountRecord stale = fetch(jooq, key);
    jooq.transaction(configuration -> {
      final DSLContext tx = DSL.using(configuration);
      final AccountRecord fresh = fetch(tx, key);
      fresh.set(ACCOUNTS.balance, fresh.get(ACCOUNTS.balance).add(new BigDecimal("5")));
      assertEquals(1, fresh.store());
      assertEquals(key + ", ann, 15.00, 2", values(fetch(tx, key)));
    });
    stale.set(ACCOUNTS.owner, "stale");
    assertThrows(DataChangedException.class, stale::store);
    assertThrows(DataChangedException.class, stale::delete);
    assertEquals(new Placement().account(key, "ann", "15", 2).shards(),
        fx.accounts(key, key + 99));
  }

  /** Plain DSL statements in {@code transaction(...)}: a multi-row insert over the shards,
   * then reads by key, by count and sum, and a computed update, all seeing the inserts. */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aTransactionReadsItsOwnInserts(Target target, Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final long key = keys();
    jooq(fx.pool(target)).transaction(configuration -> {
      final DSLContext tx = DSL.using(configuration);
      assertEquals(4, tx.insertInto(ACCOUNTS, ACCOUNTS.id, ACCOUNTS.owner, ACCOUNTS.balance,
          ACCOUNTS.version)
          .values(key, "a", new BigDecimal("1.00"), 0)
          .values(key + 1, "b", new BigDecimal("2.00"), 0)
          .values(key + 2, "c", new BigDecimal("3.00"), 0)
          .values(key + 3, "d", new BigDecimal("4.00"), 0).execute());
      assertEquals((key + 2) + ", c, 3.00, 0", values(fetch(tx, key + 2)));
      assertEquals(List.of("b", "d"), tx.select(ACCOUNTS.owner).from(ACCOUNTS)
          .where(ACCOUNTS.id.in(key + 1, key + 3)).orderBy(ACCOUNTS.id).fetch(ACCOUNTS.owner));
      assertEquals(1, tx.update(ACCOUNTS)
          .set(ACCOUNTS.balance, ACCOUNTS.balance.plus(new BigDecimal("0.50")))
          .set(ACCOUNTS.version, ACCOUNTS.version.plus(1))
          .where(ACCOUNTS.id.eq(key + 1)).execute());
      assertEquals(new BigDecimal("10.50"), tx.select(DSL.sum(ACCOUNTS.balance)).from(ACCOUNTS)
          .where(ACCOUNTS.id.between(key, key + 99)).fetchSingle().value1());
    });
    assertEquals(new Placement().account(key, "a", "1", 0).account(key + 1, "b", "2.5", 1)
        .account(key + 2, "c", "3", 0).account(key + 3, "d", "4", 0).shards(),
        fx.accounts(key, key + 99));
  }

  /**
   * Nested {@code transaction(...)} calls: one that completes is kept; one that throws after
   * inserting on another shard and updating the outer one's record is rolled back to its
   * savepoint, and the outer transaction reads on without it, writes more and commits.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aFailedNestedTransactionRollsBackToItsSavepoint(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final long key = keys();
    final long kept = onOtherShard(key, key + 1);
    final long undone = onShardOtherThan(kept + 1, key, kept);
    final long last = kept + 50;
    jooq(fx.pool(target)).transaction(configuration -> {
      final DSLContext outer = DSL.using(configuration);
      assertEquals(1, newAccount(outer, key, "outer", "10.00").store());
      outer.transaction(inner -> assertEquals(1,
          newAccount(DSL.using(inner), kept, "inner kept", "1.00").store()));
      final IllegalStateException thrown = assertThrows(IllegalStateException.class,
          () -> outer.transaction(inner -> {
            final DSLContext tx = DSL.using(inner);
            assertEquals(1, newAccount(tx, undone, "inner undone", "2.00").store());
            final AccountRecord changed = fetch(tx, key);
            changed.set(ACCOUNTS.balance, new BigDecimal("99.00"));
            assertEquals(1, changed.store());
            assertEquals(3, tx.fetchCount(ACCOUNTS, ACCOUNTS.id.between(key, key + 99)));
            throw new IllegalStateException("inner");
          }));
      assertEquals("inner", thrown.getMessage());
      assertEquals(key + ", outer, 10.00, 1", values(fetch(outer, key)));
      assertEquals(2, outer.fetchCount(ACCOUNTS, ACCOUNTS.id.between(key, key + 99)));
      assertEquals(1, newAccount(outer, last, "outer again", "3.00").store());
    });
    assertEquals(new Placement().account(key, "outer", "10", 1)
        .account(kept, "inner kept", "1", 1).account(last, "outer again", "3", 1).shards(),
        fx.accounts(key, key + 99));
  }
}
