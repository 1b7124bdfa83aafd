package io.shardset.clients;

import io.shardset.clients.FrameworkShards.Placement;
import io.shardset.clients.Pools.Target;
import io.shardset.testing.Backend;

import org.apache.ibatis.annotations.Delete;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.executor.BatchResult;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

import static io.shardset.clients.FrameworkShards.nowhere;
import static io.shardset.clients.FrameworkShards.onOtherShard;
import static io.shardset.clients.FrameworkShards.onShardOtherThan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * MyBatis over HikariCP over ShardSet, embedded and through the server, on H2 and on
 * PostgreSQL shards: an annotation mapper's insert, select by id, computed update
 * ({@code BALANCE = BALANCE + #{delta}}) and delete in one {@link SqlSession} transaction
 * that reads its own writes before it commits; a session closed without commit leaves
 * nothing; and the {@link ExecutorType#BATCH} executor's inserts and then updates of the
 * same rows in one batch. Each test checks the rows on the shards themselves. MyBatis needs
 * no setting for ShardSet: an {@link Environment} with a {@link JdbcTransactionFactory} over
 * the pool.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MyBatisTransactionsTest {
  private FrameworkShards.PerBackend shards;
  private final Map<DataSource, SqlSessionFactory> factories = new HashMap<>();
  private final AtomicLong nextKeys = new AtomicLong(3_000);

  @BeforeAll void create(@TempDir Path folder) {
    shards = new FrameworkShards.PerBackend(folder);
  }

  @AfterAll void close() throws Exception {
    shards.close();
  }

  /** A row of ACCOUNTS, mapped by MyBatis from the columns of the same names. */
  static final class Account {
    private long id;
    private String owner;
    private BigDecimal balance;
    private int version;

    Account() {
    }

    Account(long id, String owner, String balance) {
      this.id = id;
      this.owner = owner;
      this.balance = new BigDecimal(balance);
    }

    public long getId() {
      return id;
    }

    public void setId(long id) {
      this.id = id;
    }

    public String getOwner() {
      return owner;
    }

    public void setOwner(String owner) {
      this.owner = owner;
    }

    public BigDecimal getBalance() {
      return balance;
    }

    public void setBalance(BigDecimal balance) {
      this.balance = balance;
    }

    public int getVersion() {
      return version;
    }

    public void setVersion(int version) {
      this.version = version;
    }

    /** {@code ID, OWNER, BALANCE, VERSION}. */
    @Override public String toString() {
      return id + ", " + owner + ", " + balance.toPlainString() + ", " + version;
    }
  }

  /** A row of EVENTS, whose ID the shard gives. */
  static final class Event {
    private Long id;
    private long accountId;

    public Long getId() {
      return id;
    }

    public void setId(Long id) {
      this.id = id;
    }

    public long getAccountId() {
      return accountId;
    }

    public void setAccountId(long accountId) {
      this.accountId = accountId;
    }
  }

  /** The annotation mapper of EVENTS: MyBatis's generated keys fill the ID. */
  interface EventMapper {
    @Insert("INSERT INTO EVENTS (ACCOUNT_ID) VALUES (#{accountId})")
    @Options(useGeneratedKeys = true, keyProperty = "id", keyColumn = "ID")
    int insert(Event event);

    @Select("SELECT NOTE FROM EVENTS WHERE ID = #{id} AND ACCOUNT_ID = #{accountId}")
    String note(@Param("id") long id, @Param("accountId") long accountId);
  }

  /** The annotation mapper of ACCOUNTS. */
  interface AccountMapper {
    @Insert("INSERT INTO ACCOUNTS (ID, OWNER, BALANCE, VERSION)"
        + " VALUES (#{id}, #{owner}, #{balance}, #{version})")
    int insert(Account account);

    @Select("SELECT ID, OWNER, BALANCE, VERSION FROM ACCOUNTS WHERE ID = #{id}")
    Account find(long id);

    @Select("SELECT ID, OWNER, BALANCE, VERSION FROM ACCOUNTS WHERE ID BETWEEN #{from} AND #{to}"
        + " ORDER BY ID")
    List<Account> range(@Param("from") long from, @Param("to") long to);

    @Update("UPDATE ACCOUNTS SET BALANCE = BALANCE + #{delta}, VERSION = VERSION + 1"
        + " WHERE ID = #{id}")
    int addToBalance(@Param("id") long id, @Param("delta") BigDecimal delta);

    @Delete("DELETE FROM ACCOUNTS WHERE ID = #{id}")
    int delete(long id);
  }

  /** A block of 100 keys no other test writes. */
  private long keys() {
    return nextKeys.getAndAdd(100);
  }

  /** The session factory over the pool: the mapper, JDBC transactions, nothing else. */
  private SqlSessionFactory factory(DataSource pool) {
    return factories.computeIfAbsent(pool, p -> {
      final Configuration configuration =
          new Configuration(new Environment("shardset", new JdbcTransactionFactory(), p));
      configuration.addMapper(AccountMapper.class);
      configuration.addMapper(EventMapper.class);
      return new SqlSessionFactoryBuilder().build(configuration);
    });
  }

  private static List<String> strings(List<Account> accounts) {
    final List<String> all = new ArrayList<>();
    for (Account account : accounts) {
      all.add(account.toString());
    }
    return all;
  }

  /**
   * One session (autocommit off) inserts rows on three shards, selects one back by id, adds
   * to its balance with a computed SET and reads the new balance, deletes another and reads
   * that it is gone; the shards show nothing until the commit, and then the two rows left,
   * each on its shard.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aMappersInsertSelectUpdateAndDeleteShareOneTransaction(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final long key = keys();
    final long other = onOtherShard(key, key + 1);
    final long third = onShardOtherThan(key + 1, key, other);
    try (SqlSession session = factory(fx.pool(target)).openSession()) {
      final AccountMapper mapper = session.getMapper(AccountMapper.class);
      assertEquals(1, mapper.insert(new Account(key, "ann", "10.00")));
      assertEquals(1, mapper.insert(new Account(other, "bob", "20.00")));
      assertEquals(1, mapper.insert(new Account(third, "gone", "30.00")));
      assertEquals(key + ", ann, 10.00, 0", mapper.find(key).toString());
      assertEquals(1, mapper.addToBalance(key, new BigDecimal("2.50")));
      assertEquals(key + ", ann, 12.50, 1", mapper.find(key).toString());
      assertEquals(1, mapper.delete(third));
      assertNull(mapper.find(third));
      assertEquals(List.of(key + ", ann, 12.50, 1", other + ", bob, 20.00, 0"),
          strings(mapper.range(key, key + 99)));
      assertEquals(nowhere(), fx.accounts(key, key + 99));
      session.commit();
    }
    assertEquals(new Placement().account(key, "ann", "12.5", 1).account(other, "bob", "20", 0)
        .shards(), fx.accounts(key, key + 99));
  }

  /**
   * {@code useGeneratedKeys} fills each inserted event's ID with the identity its shard gave,
   * for a single insert and for the BATCH executor's, and the session reads the row back by
   * it before the commit. Embedded only: Avatica's protocol has no generated keys.
   */
  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES"})
  void generatedKeysFillTheInsertedObjects(Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final long account = keys();
    final long other = onOtherShard(account, account + 1);
    final Event first = new Event();
    first.setAccountId(account);
    final List<Event> batched = new ArrayList<>();
    try (SqlSession session = factory(fx.pool(Target.EMBEDDED)).openSession()) {
      final EventMapper mapper = session.getMapper(EventMapper.class);
      assertEquals(1, mapper.insert(first));
      assertEquals("none", mapper.note(first.getId(), account));
      session.commit();
    }
    try (SqlSession session = factory(fx.pool(Target.EMBEDDED))
        .openSession(ExecutorType.BATCH)) {
      final EventMapper mapper = session.getMapper(EventMapper.class);
      for (long accountId : new long[] {other, account, other}) {
        final Event event = new Event();
        event.setAccountId(accountId);
        mapper.insert(event);
        batched.add(event);
      }
      session.flushStatements();
      session.commit();
    }
    final Placement expected = new Placement().event(first.getId(), account, "none");
    for (Event event : batched) {
      assertEquals(FrameworkShards.shardOf(event.getAccountId()) + 1,
          event.getId() / FrameworkShards.IDENTITY_BLOCK);
      expected.event(event.getId(), event.getAccountId(), "none");
    }
    assertEquals(expected.shards(), fx.events(account, account + 99));
  }

  /** A session that wrote, read its writes and is closed without a commit is rolled back:
   * its insert and its computed update of a committed row are gone. */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aSessionClosedWithoutCommitLeavesNothing(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final SqlSessionFactory factory = factory(fx.pool(target));
    final long key = keys();
    final long other = onOtherShard(key, key + 1);
    try (SqlSession session = factory.openSession(true)) {
      assertEquals(1, session.getMapper(AccountMapper.class)
          .insert(new Account(key, "kept", "1.00")));
    }
    try (SqlSession session = factory.openSession()) {
      final AccountMapper mapper = session.getMapper(AccountMapper.class);
      assertEquals(1, mapper.insert(new Account(other, "gone", "2.00")));
      assertEquals(1, mapper.addToBalance(key, BigDecimal.TEN));
      assertEquals(List.of(key + ", kept, 11.00, 1", other + ", gone, 2.00, 0"),
          strings(mapper.range(key, key + 99)));
    }
    assertEquals(new Placement().account(key, "kept", "1", 0).shards(),
        fx.accounts(key, key + 99));
  }

  /**
   * The BATCH executor: inserts of rows over the shards, then computed updates of the same
   * rows, flushed as two JDBC batches whose counts are one per row; a select in the session
   * reads the result, and after the commit each row is on its shard with its update.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void theBatchExecutorInsertsThenUpdatesTheSameRows(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final long key = keys();
    final int rows = 6;
    try (SqlSession session = factory(fx.pool(target)).openSession(ExecutorType.BATCH)) {
      final AccountMapper mapper = session.getMapper(AccountMapper.class);
      for (int i = 0; i < rows; i++) {
        mapper.insert(new Account(key + i, "b" + i, i + ".00"));
      }
      for (int i = 0; i < rows; i++) {
        mapper.addToBalance(key + i, new BigDecimal("0.50"));
      }
      final List<String> counts = new ArrayList<>();
      for (BatchResult batch : session.flushStatements()) {
        counts.add(Arrays.toString(batch.getUpdateCounts()));
      }
      assertEquals(List.of("[1, 1, 1, 1, 1, 1]", "[1, 1, 1, 1, 1, 1]"), counts);
      assertEquals((key + 5) + ", b5, 5.50, 1", mapper.find(key + 5).toString());
      session.commit();
    }
    final Placement expected = new Placement();
    for (int i = 0; i < rows; i++) {
      expected.account(key + i, "b" + i, i + ".50", 1);
    }
    assertEquals(expected.shards(), fx.accounts(key, key + 99));
  }
}
