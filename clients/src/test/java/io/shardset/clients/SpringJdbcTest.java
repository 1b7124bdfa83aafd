package io.shardset.clients;

import io.shardset.clients.Pools.Kind;
import io.shardset.clients.Pools.Target;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spring's {@link JdbcTemplate} and {@link TransactionTemplate} over HikariCP and over
 * commons-dbcp2, each pooling ShardSet's driver, embedded and through the server. Reads are
 * compared with the unsharded reference; each test writes keys of its own, above the
 * fixture's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringJdbcTest {
  private ShardedFixture fixture;
  private Pools pools;
  private JdbcTemplate reference;
  private final AtomicLong nextKeys = new AtomicLong(10_000);

  @BeforeAll void createModel(@TempDir Path folder) throws Exception {
    fixture = ShardedFixture.create(folder);
    pools = new Pools(fixture);
    reference = new JdbcTemplate(new SingleConnectionDataSource(fixture.referenceUrl(), "sa",
        "", true));
  }

  @AfterAll void close() throws Exception {
    pools.close();
    fixture.close();
  }

  static Stream<Arguments> pools() {
    final List<Arguments> all = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (Target target : Target.values()) {
        all.add(Arguments.of(kind, target));
      }
    }
    return all.stream();
  }

  /** A block of 100 keys no other test writes. */
  private long keys() {
    return nextKeys.getAndAdd(100);
  }

  private static List<String> rows(JdbcTemplate jdbc, String sql, Object... args) {
    final ResultSetExtractor<List<String>> all = ShardFixture::rows;
    return jdbc.query(sql, all, args);
  }

  private List<String> both(JdbcTemplate jdbc, String sql, Object... args) {
    final List<String> expected = rows(reference, sql, args);
    assertFalse(expected.isEmpty(), "the reference has no rows for " + sql);
    assertEquals(expected, rows(jdbc, sql, args), sql);
    return expected;
  }

  @ParameterizedTest @MethodSource("pools")
  void queriesWithTypedParametersGiveTheReferenceRows(Kind kind, Target target)
      throws Exception {
    final JdbcTemplate jdbc = new JdbcTemplate(pools.pool(kind, target));
    both(jdbc, "SELECT ID, NAME, REGION, SIGNUP FROM CUSTOMERS WHERE ID = ?", 7L);
    both(jdbc, "SELECT ID, TOTAL, STATUS FROM ORDERS WHERE CUSTOMER_ID IN (?, ?) AND ID <= ?"
        + " ORDER BY ID", 3, 17L, ShardedFixture.ORDERS);
    both(jdbc, "SELECT STATUS, COUNT(*), SUM(TOTAL) FROM ORDERS WHERE TOTAL > ? AND ID <= ?"
        + " GROUP BY STATUS ORDER BY STATUS NULLS FIRST", new java.math.BigDecimal("100.50"),
        ShardedFixture.ORDERS);
    both(jdbc, "SELECT ID, ORDERED_AT FROM ORDERS WHERE ORDERED_AT >= ? AND ORDERED_AT < ?"
        + " AND ID <= ? ORDER BY ID", Timestamp.valueOf("2024-03-12 00:00:00"),
        Timestamp.valueOf("2024-03-14 12:00:00"), ShardedFixture.ORDERS);
    both(jdbc, "SELECT ID FROM CUSTOMERS WHERE SIGNUP = ? ORDER BY ID",
        Date.valueOf("2024-03-12"));
    assertEquals(ShardedFixture.CUSTOMERS, jdbc.queryForObject(
        "SELECT COUNT(*) FROM CUSTOMERS WHERE ID <= ?", Integer.class, ShardedFixture.CUSTOMERS));
    assertEquals("Customer 12", jdbc.queryForObject("SELECT NAME FROM CUSTOMERS WHERE ID = ?",
        String.class, 12));
  }

  /** java.time values as query parameters and results, as Spring passes them:
   * {@code setObject} and {@code getObject(i, LocalDateTime.class)}. */
  private void javaTimeQueryParameters(Target target) throws Exception {
    final JdbcTemplate jdbc = new JdbcTemplate(pools.pool(Kind.HIKARI, target));
    both(jdbc, "SELECT ID, ORDERED_AT FROM ORDERS WHERE ORDERED_AT >= ? AND ORDERED_AT < ?"
        + " AND ID <= ? ORDER BY ID", LocalDateTime.parse("2024-03-12T00:00:00"),
        LocalDateTime.parse("2024-03-14T12:00:00"), ShardedFixture.ORDERS);
    both(jdbc, "SELECT ID FROM CUSTOMERS WHERE SIGNUP = ? ORDER BY ID",
        LocalDate.parse("2024-03-12"));
    assertEquals(LocalDateTime.parse("2024-03-11T11:11:05.125"), jdbc.queryForObject(
        "SELECT ORDERED_AT FROM ORDERS WHERE ID = ?", LocalDateTime.class, 1));
  }

  @Test void javaTimeQueryParametersEmbedded() throws Exception {
    javaTimeQueryParameters(Target.EMBEDDED);
  }

  @Test void javaTimeQueryParametersRemote() throws Exception {
    javaTimeQueryParameters(Target.REMOTE);
  }

  /** A java.time value written through an INSERT's parameter. */
  private void javaTimeInsert(Target target) throws Exception {
    final JdbcTemplate jdbc = new JdbcTemplate(pools.pool(Kind.HIKARI, target));
    final long key = keys();
    assertEquals(1, jdbc.update("INSERT INTO ORDERS VALUES (?, ?, ?, ?, ?)", key, 5L,
        LocalDateTime.parse("2025-01-02T03:04:05.678"), new java.math.BigDecimal("9.99"), "NEW"));
    assertEquals(List.of(key + ", 2025-01-02 03:04:05.678"), rows(jdbc,
        "SELECT ID, ORDERED_AT FROM ORDERS WHERE ID = ?", key));
  }

  @Test void javaTimeInsertEmbedded() throws Exception {
    javaTimeInsert(Target.EMBEDDED);
  }

  @Test void javaTimeInsertRemote() throws Exception {
    javaTimeInsert(Target.REMOTE);
  }

  @ParameterizedTest @MethodSource("pools")
  void updatesInsertChangeAndDeleteRows(Kind kind, Target target) throws Exception {
    final JdbcTemplate jdbc = new JdbcTemplate(pools.pool(kind, target));
    final long key = keys();
    assertEquals(1, jdbc.update("INSERT INTO CUSTOMERS (ID, NAME, REGION, SIGNUP)"
        + " VALUES (?, ?, ?, ?)", key, "Spring " + key, "EU", Date.valueOf("2025-02-03")));
    final int[] batch = jdbc.batchUpdate("INSERT INTO CUSTOMERS VALUES (?, ?, ?, ?)",
        List.of(new Object[] {key + 1, "Batch 1", "US", Date.valueOf("2025-02-04")},
            new Object[] {key + 2, "Batch 2", null, Date.valueOf("2025-02-05")}));
    assertEquals(2, batch.length);
    assertEquals(1, jdbc.update("UPDATE CUSTOMERS SET NAME = ? WHERE ID = ?", "Renamed", key));
    assertEquals(1, jdbc.update("DELETE FROM CUSTOMERS WHERE ID = ?", key + 1));
    assertEquals(List.of(key + ", Renamed, EU, 2025-02-03", (key + 2) + ", Batch 2, NULL,"
        + " 2025-02-05"), rows(jdbc, "SELECT ID, NAME, REGION, SIGNUP FROM CUSTOMERS"
        + " WHERE ID BETWEEN ? AND ? ORDER BY ID", key, key + 99));
  }

  private static TransactionTemplate transactions(DataSource pool) {
    return new TransactionTemplate(new DataSourceTransactionManager(pool));
  }

  private static List<String> ids(JdbcTemplate jdbc, long key) {
    return rows(jdbc, "SELECT ID FROM CUSTOMERS WHERE ID BETWEEN ? AND ? ORDER BY ID", key,
        key + 99);
  }

  @ParameterizedTest @MethodSource("pools")
  void transactionTemplateCommits(Kind kind, Target target) throws Exception {
    final DataSource pool = pools.pool(kind, target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long key = keys();
    transactions(pool).executeWithoutResult(status -> {
      // Keys on several shards: the commit covers all of them.
      for (long k = key; k < key + 5; k++) {
        jdbc.update("INSERT INTO CUSTOMERS VALUES (?, ?, 'EU', DATE '2025-01-01')", k, "T" + k);
      }
      jdbc.update("UPDATE CUSTOMERS SET NAME = 'changed' WHERE ID = ?", key);
    });
    assertEquals(List.of(String.valueOf(key), String.valueOf(key + 1), String.valueOf(key + 2),
        String.valueOf(key + 3), String.valueOf(key + 4)), ids(jdbc, key));
    assertEquals("changed", jdbc.queryForObject("SELECT NAME FROM CUSTOMERS WHERE ID = ?",
        String.class, key));
  }

  @ParameterizedTest @MethodSource("pools")
  void transactionTemplateRollsBack(Kind kind, Target target) throws Exception {
    final DataSource pool = pools.pool(kind, target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final long key = keys();
    jdbc.update("INSERT INTO CUSTOMERS VALUES (?, 'kept', 'EU', DATE '2025-01-01')", key);
    final IllegalStateException thrown = assertThrows(IllegalStateException.class,
        () -> transactions(pool).executeWithoutResult(status -> {
          for (long k = key + 1; k < key + 5; k++) {
            jdbc.update("INSERT INTO CUSTOMERS VALUES (?, 'gone', 'EU', DATE '2025-01-01')", k);
          }
          jdbc.update("DELETE FROM CUSTOMERS WHERE ID = ?", key);
          throw new IllegalStateException("undo");
        }));
    assertEquals("undo", thrown.getMessage());
    transactions(pool).executeWithoutResult(status -> {
      jdbc.update("INSERT INTO CUSTOMERS VALUES (?, 'gone', 'EU', DATE '2025-01-01')", key + 9);
      status.setRollbackOnly();
    });
    assertEquals(List.of(String.valueOf(key)), ids(jdbc, key));
  }

  @ParameterizedTest @MethodSource("pools")
  void readOnlyTransactionReadsAndRefusesWrites(Kind kind, Target target) throws Exception {
    final DataSource pool = pools.pool(kind, target);
    final JdbcTemplate jdbc = new JdbcTemplate(pool);
    final TransactionTemplate readOnly = transactions(pool);
    readOnly.setReadOnly(true);
    final long key = keys();
    final List<String> read = readOnly.execute(status -> rows(jdbc,
        "SELECT ID, NAME FROM CUSTOMERS WHERE ID <= ? ORDER BY ID", 5));
    assertEquals(rows(reference, "SELECT ID, NAME FROM CUSTOMERS WHERE ID <= ? ORDER BY ID", 5),
        read);
    assertThrows(DataAccessException.class, () -> readOnly.executeWithoutResult(status ->
        jdbc.update("INSERT INTO CUSTOMERS VALUES (?, 'no', 'EU', DATE '2025-01-01')", key)));
    // The pool's connections are writable again after the read-only transaction.
    assertEquals(1, jdbc.update("INSERT INTO CUSTOMERS VALUES (?, 'yes', 'EU',"
        + " DATE '2025-01-01')", key + 1));
    assertEquals(List.of(String.valueOf(key + 1)), ids(jdbc, key));
  }

  /** A connection given back with an open transaction is rolled back by the pool, and the
   * next borrower gets an autocommit connection. */
  @ParameterizedTest @MethodSource("pools")
  void aConnectionGivenBackMidTransactionIsRolledBack(Kind kind, Target target)
      throws Exception {
    final DataSource pool = pools.pool(kind, target);
    final long key = keys();
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (" + key
          + ", 'pending', 'EU', DATE '2025-01-01')"));
    }
    for (int i = 0; i < 2; i++) {
      try (Connection c = pool.getConnection()) {
        assertTrue(c.getAutoCommit());
      }
    }
    assertEquals(List.of(), ids(new JdbcTemplate(pool), key));
  }

  /** Spring maps the SQLStates of class 42 that ShardSet gives a statement that does not
   * parse or names an unknown column or table to BadSqlGrammarException, with the reason. */
  @ParameterizedTest @MethodSource("pools")
  void syntaxErrorsAreBadSqlGrammar(Kind kind, Target target) throws Exception {
    final JdbcTemplate jdbc = new JdbcTemplate(pools.pool(kind, target));
    assertBadGrammar(jdbc, "SELEC ID FROM CUSTOMERS", "42000",
        "Non-query expression encountered in illegal context");
    assertBadGrammar(jdbc, "SELECT NO_SUCH_COLUMN FROM CUSTOMERS", "42S22",
        "From line 1, column 8 to line 1, column 21: Column 'NO_SUCH_COLUMN' not found in any"
            + " table");
    assertBadGrammar(jdbc, "SELECT ID FROM NO_SUCH_TABLE", "42S02",
        "From line 1, column 16 to line 1, column 28: Object 'NO_SUCH_TABLE' not found");
    // The pooled connection still serves.
    assertEquals("Customer 7", jdbc.queryForObject("SELECT NAME FROM CUSTOMERS WHERE ID = 7",
        String.class));
  }

  private static void assertBadGrammar(JdbcTemplate jdbc, String sql, String state,
      String reason) {
    final BadSqlGrammarException e =
        assertThrows(BadSqlGrammarException.class, () -> jdbc.queryForList(sql));
    assertEquals(sql, e.getSql());
    assertEquals(state, e.getSQLException().getSQLState(), e.getMessage());
    assertTrue(e.getSQLException().getMessage().endsWith(reason),
        e.getSQLException().getMessage());
  }

  @ParameterizedTest @MethodSource("pools")
  void duplicateKeysAreDuplicateKeyExceptions(Kind kind, Target target) throws Exception {
    final JdbcTemplate jdbc = new JdbcTemplate(pools.pool(kind, target));
    assertThrows(DuplicateKeyException.class, () -> jdbc.update(
        "INSERT INTO CUSTOMERS VALUES (?, 'again', 'EU', DATE '2025-01-01')", 7));
    assertEquals("Customer 7", jdbc.queryForObject("SELECT NAME FROM CUSTOMERS WHERE ID = 7",
        String.class));
  }
}
