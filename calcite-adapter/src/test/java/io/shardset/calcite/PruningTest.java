package io.shardset.calcite;

import io.shardset.testing.QueryAssert;
import io.shardset.testing.QueryOutcome;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;
import static io.shardset.testing.ExpectedPlacement.shardOfLongString;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each predicate shape of the spec's pruning section reaches exactly the expected shards,
 * counted at the shards themselves.
 */
class PruningTest extends SalesDataTestBase {
  /** The default chunk count: 120 per shard. */
  private static final int CHUNKS = 480;
  private static final Set<String> ALL = Set.of("s0", "s1", "s2", "s3");
  private static final Set<String> NONE = Set.of();

  @Test void consistentHashPoints() throws SQLException {
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 42")
        .reaches(hash(42)).returnsUnsharded();
    sql("SELECT * FROM CUSTOMERS WHERE 42 = CUSTOMER_ID")
        .reaches(hash(42)).returnsUnsharded();
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = CAST('42' AS BIGINT)")
        .reaches(hash(42)).returnsUnsharded();
    sql("SELECT * FROM ORDERS WHERE CUSTOMER_ID IN (1, 2, 3, 150)")
        .reaches(hash(1, 2, 3, 150)).returnsUnsharded();
    sql("SELECT * FROM ORDERS WHERE CUSTOMER_ID = 1 OR CUSTOMER_ID = 2")
        .reaches(hash(1, 2)).returnsUnsharded();
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID IN (5, 6) AND REGION = 'EU'")
        .reaches(hash(5, 6)).returnsUnsharded();
    sql("SELECT * FROM CUSTOMERS"
        + " WHERE (CUSTOMER_ID = 1 AND NAME LIKE 'cust%') OR CUSTOMER_ID = 3")
        .reaches(hash(1, 3)).returnsUnsharded();
    // Through a projection and an alias.
    sql("SELECT K FROM (SELECT CUSTOMER_ID AS K, NAME FROM CUSTOMERS)"
        + " WHERE K = 7")
        .reaches(hash(7))
        // PostgreSQL wants the subquery named.
        .returnsUnsharded("SELECT K FROM (SELECT CUSTOMER_ID AS K, NAME FROM CUSTOMERS) AS x"
            + " WHERE K = 7");
  }

  /**
   * A query that fixes the shard key reads its shards without a transaction, even where the
   * driver streams only inside one (PostgreSQL): it expects few rows. A scan of the whole table
   * streams in a transaction on PostgreSQL shards, and in autocommit mode on the others.
   */
  @Test void keyFixedQueriesReadWithoutATransaction() throws SQLException {
    final Set<Boolean> scanModes = switch (backend()) {
    case H2 -> Set.of(true);
    case POSTGRES -> Set.of(false);
    default -> Set.of(false, true); // some shards are PostgreSQL, some not
    };
    assertEquals(Set.of(true), autoCommitAtShards(
        sql("SELECT * FROM ORDERS WHERE CUSTOMER_ID IN (3, 150)")));
    assertEquals(scanModes, autoCommitAtShards(sql("SELECT * FROM ORDERS")));
    assertEquals(Set.of(true), autoCommitAtShards(
        sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = ?").withParameters(42L)));
  }

  private static Set<Boolean> autoCommitAtShards(QueryAssert query) {
    final Set<Boolean> modes = new TreeSet<>();
    query.returnsUnsharded().outcome().executions().values()
        .forEach(list -> list.forEach(e -> modes.add(e.autoCommit())));
    return modes;
  }

  @Test void keyPredicateOnOneSideOfAJoinPrunesBothSides() throws SQLException {
    // The predicate on c is carried over the join condition to o.
    sql("SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o"
        + " ON o.CUSTOMER_ID = c.CUSTOMER_ID WHERE c.CUSTOMER_ID = 42")
        .reaches(hash(42)).returnsUnsharded();
  }

  @Test void consistentHashOtherPredicatesReachEveryShard() throws SQLException {
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID > 390")
        .reachesAll().returnsUnsharded();
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 1 OR REGION = 'EU'")
        .reachesAll().returnsUnsharded();
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID + 1 = 43")
        .reachesAll().returnsUnsharded();
  }

  @Test void contradictionReachesNoShard() throws SQLException {
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 1 AND CUSTOMER_ID = 2")
        .reaches().returnsUnsharded();
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID IN (1, 2)"
        + " AND CUSTOMER_ID IN (3, 4)")
        .reaches().returnsUnsharded();
  }

  @Test void multiColumnKey() throws SQLException {
    sql("SELECT * FROM VISITS WHERE CUSTOMER_ID = 5 AND SITE = 'web'")
        .reaches("s" + shardOfLongString(5, "web", CHUNKS, 4)).returnsUnsharded();
    final Set<String> both = new TreeSet<>();
    for (long c : new long[] {5, 6}) {
      for (String s : new String[] {"web", "ios"}) {
        both.add("s" + shardOfLongString(c, s, CHUNKS, 4));
      }
    }
    sql("SELECT * FROM VISITS WHERE CUSTOMER_ID IN (5, 6)"
        + " AND SITE IN ('web', 'ios')")
        .reaches(both).returnsUnsharded();
    sql("SELECT * FROM VISITS WHERE CUSTOMER_ID = 5")
        .reachesAll().returnsUnsharded();
  }

  @Test void parametersPruneAtExecution() throws SQLException {
    final String sql = "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = ?";
    try (PreparedStatement p = connection.prepareStatement(sql)) {
      for (long id : new long[] {42, 7, 300}) {
        p.setLong(1, id);
        assertEquals(hash(id), reached(p), "setLong " + id);
        p.setInt(1, (int) id);
        assertEquals(hash(id), reached(p), "setInt " + id);
        p.setString(1, Long.toString(id));
        assertEquals(hash(id), reached(p), "setString " + id);
        p.setBigDecimal(1, BigDecimal.valueOf(id));
        assertEquals(hash(id), reached(p), "setBigDecimal " + id);
      }
      p.setNull(1, Types.BIGINT);
      assertEquals(NONE, reached(p), "setNull");
    }
  }

  /** Each shard is sent only its own keys of a list of parameters, the others replaced. */
  @Test void eachShardIsSentOnlyItsOwnKeysOfAParameterList() throws SQLException {
    final long[] keys = {1, 2, 3, 4, 5, 6, 7, 8};
    final String sql = "SELECT ORDER_ID, CUSTOMER_ID FROM ORDERS WHERE CUSTOMER_ID IN"
        + " (?, ?, ?, ?, ?, ?, ?, ?)";
    final QueryOutcome outcome = sql(sql).withParameters(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L)
        .returnsUnsharded(sql.replace("(?, ?, ?, ?, ?, ?, ?, ?)", "(1, 2, 3, 4, 5, 6, 7, 8)"))
        .outcome();
    final Set<String> reached = outcome.reached();
    assertTrue(reached.size() > 1, "the keys should span several shards: " + reached);
    for (String shard : reached) {
      final Set<Object> own = new TreeSet<>();
      for (long key : keys) {
        if (hash(key).contains(shard)) {
          own.add(key);
        }
      }
      final Set<Object> sent = new TreeSet<>();
      outcome.executions(shard).forEach(e -> e.parameters()
          .forEach(v -> sent.add(((Number) v).longValue())));
      assertEquals(own, sent, shard);
    }
  }

  @Test void parameterListsAndDates() throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID IN (?, ?)")) {
      p.setLong(1, 1);
      p.setLong(2, 150);
      assertEquals(hash(1, 150), reached(p));
      p.setInt(1, 42);
      p.setInt(2, 42);
      assertEquals(hash(42), reached(p));
    }
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM EVENTS WHERE EVENT_DAY = ?")) {
      p.setDate(1, Date.valueOf("2020-01-01"));
      assertEquals(Set.of("s1"), reached(p));
      p.setObject(1, LocalDate.of(2019, 12, 31));
      assertEquals(Set.of("s0"), reached(p));
      p.setString(1, "2023-02-03");
      assertEquals(Set.of("s3"), reached(p));
    }
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT COUNT(*) FROM LEDGER WHERE POSTED >= ?")) {
      // setDate on a TIMESTAMP parameter means midnight of that day.
      p.setDate(1, Date.valueOf("2021-03-20"));
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        assertEquals(fixture.oracleRows("SELECT COUNT(*) FROM LEDGER"
            + " WHERE POSTED >= TIMESTAMP '2021-03-20 00:00:00'"), List.of(rs.getString(1)));
      }
    }
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM ACCOUNTS WHERE REGION = ?")) {
      p.setString(1, "UK");
      assertEquals(Set.of("s0"), reached(p));
      p.setString(1, "MEA");
      assertEquals(Set.of("s3"), reached(p));
    }
  }

  @Test void rangeOnDates() throws SQLException {
    sql("SELECT * FROM EVENTS WHERE EVENT_DAY = DATE '2020-01-01'")
        .reaches("s1").returnsUnsharded();
    sql("SELECT * FROM EVENTS WHERE EVENT_DAY = CAST('2020-01-01' AS DATE)")
        .reaches("s1").returnsUnsharded();
    sql("SELECT * FROM EVENTS WHERE EVENT_DAY < DATE '2020-01-01'")
        .reaches("s0").returnsUnsharded();
    sql("SELECT * FROM EVENTS WHERE EVENT_DAY <= DATE '2020-01-01'")
        .reaches("s0", "s1").returnsUnsharded();
    sql("SELECT * FROM EVENTS WHERE EVENT_DAY > DATE '2021-12-31'")
        .reaches("s3").returnsUnsharded();
    sql("SELECT * FROM EVENTS WHERE EVENT_DAY >= DATE '2022-01-01'")
        .reaches("s3").returnsUnsharded();
    sql("SELECT * FROM EVENTS"
        + " WHERE EVENT_DAY BETWEEN DATE '2020-06-01' AND DATE '2021-02-01'")
        .reaches("s1", "s2").returnsUnsharded();
    sql("SELECT * FROM EVENTS"
        + " WHERE EVENT_DAY IN (DATE '2019-12-31', DATE '2022-01-01')")
        .reaches("s0", "s3").returnsUnsharded();
    sql("SELECT * FROM EVENTS"
        + " WHERE EVENT_DAY < DATE '2019-01-01' OR EVENT_DAY > DATE '2022-06-01'")
        .reaches("s0", "s3").returnsUnsharded();
    sql("SELECT * FROM EVENTS WHERE WEIGHT IS NULL")
        .reachesAll().returnsUnsharded();
  }

  @Test void rangeOnNumbers() throws SQLException {
    sql("SELECT * FROM LEDGER WHERE ENTRY_ID BETWEEN 990 AND 1010")
        .reaches("s0", "s1").returnsUnsharded();
    sql("SELECT * FROM LEDGER WHERE ENTRY_ID = 2000")
        .reaches("s2").returnsUnsharded();
    // Outside every range: no shard can hold such a key.
    sql("SELECT * FROM LEDGER WHERE ENTRY_ID >= 5000")
        .reaches().returnsUnsharded();
    sql("SELECT * FROM LEDGER WHERE ENTRY_ID < 0")
        .reaches().returnsUnsharded();
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM LEDGER WHERE ENTRY_ID BETWEEN ? AND ?")) {
      p.setInt(1, 1500);
      p.setInt(2, 2500);
      assertEquals(Set.of("s1", "s2"), reached(p));
      p.setLong(1, 3500);
      p.setLong(2, 9000);
      assertEquals(Set.of("s3"), reached(p));
    }
  }

  @Test void list() throws SQLException {
    sql("SELECT * FROM ACCOUNTS WHERE REGION = 'EU'")
        .reaches("s0").returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE REGION IN ('US', 'APAC')")
        .reaches("s1", "s2").returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE REGION = 'LATAM'")
        .reaches("s3").returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE REGION IS NULL")
        .reaches("s3").returnsUnsharded();
    // s0 also lists UK, so <> 'EU' still needs it; excluding both of its values drops it.
    sql("SELECT * FROM ACCOUNTS WHERE REGION <> 'EU'")
        .reachesAll().returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE REGION NOT IN ('EU', 'UK')")
        .reaches("s1", "s2", "s3").returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE REGION NOT IN ('EU', 'UK', 'US', 'APAC')")
        .reaches("s3").returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE REGION = 'EU' OR REGION = 'APAC'")
        .reaches("s0", "s2").returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE REGION = 'EU' OR BALANCE < 0")
        .reachesAll().returnsUnsharded();
  }

  @Test void duplicatedTableReadsOneShard() throws SQLException {
    sql("SELECT * FROM COUNTRIES")
        .reaches("s0").returnsUnsharded();
    sql("SELECT NAME FROM COUNTRIES WHERE REGION = 'EU'")
        .reaches("s0").returnsUnsharded();
  }

  private static Set<String> hash(long... ids) {
    final Set<String> shards = new TreeSet<>();
    for (long id : ids) {
      shards.add("s" + shardOfLong(id, CHUNKS, 4));
    }
    return shards;
  }

}
