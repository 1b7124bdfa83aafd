package io.shardset.calcite;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
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
    assertReached(hash(42), "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 42");
    assertReached(hash(42), "SELECT * FROM CUSTOMERS WHERE 42 = CUSTOMER_ID");
    assertReached(hash(42), "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = CAST('42' AS BIGINT)");
    assertReached(hash(1, 2, 3, 150),
        "SELECT * FROM ORDERS WHERE CUSTOMER_ID IN (1, 2, 3, 150)");
    assertReached(hash(1, 2), "SELECT * FROM ORDERS WHERE CUSTOMER_ID = 1 OR CUSTOMER_ID = 2");
    assertReached(hash(5, 6),
        "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID IN (5, 6) AND REGION = 'EU'");
    assertReached(hash(1, 3), "SELECT * FROM CUSTOMERS"
        + " WHERE (CUSTOMER_ID = 1 AND NAME LIKE 'cust%') OR CUSTOMER_ID = 3");
    // Through a projection and an alias.
    assertReached(hash(7), "SELECT K FROM (SELECT CUSTOMER_ID AS K, NAME FROM CUSTOMERS)"
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
        "SELECT * FROM ORDERS WHERE CUSTOMER_ID IN (3, 150)"));
    assertEquals(scanModes, autoCommitAtShards("SELECT * FROM ORDERS"));
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = ?")) {
      p.setLong(1, 42);
      reached(p);
      assertEquals(Set.of(true), autoCommitAtShards());
    }
  }

  private Set<Boolean> autoCommitAtShards(String sql) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(sql)) {
      reached(p);
    }
    return autoCommitAtShards();
  }

  private Set<Boolean> autoCommitAtShards() {
    final Set<Boolean> modes = new TreeSet<>();
    for (String shard : fixture.shards().names()) {
      fixture.shards().executions(shard).forEach(e -> modes.add(e.autoCommit()));
    }
    return modes;
  }

  @Test void keyPredicateOnOneSideOfAJoinPrunesBothSides() throws SQLException {
    // The predicate on c is carried over the join condition to o.
    assertReached(hash(42), "SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o"
        + " ON o.CUSTOMER_ID = c.CUSTOMER_ID WHERE c.CUSTOMER_ID = 42");
  }

  @Test void consistentHashOtherPredicatesReachEveryShard() throws SQLException {
    assertReached(ALL, "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID > 390");
    assertReached(ALL, "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 1 OR REGION = 'EU'");
    assertReached(ALL, "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID + 1 = 43");
  }

  @Test void contradictionReachesNoShard() throws SQLException {
    assertReached(NONE, "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 1 AND CUSTOMER_ID = 2");
    assertReached(NONE, "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID IN (1, 2)"
        + " AND CUSTOMER_ID IN (3, 4)");
  }

  @Test void multiColumnKey() throws SQLException {
    assertReached(Set.of("s" + shardOfLongString(5, "web", CHUNKS, 4)),
        "SELECT * FROM VISITS WHERE CUSTOMER_ID = 5 AND SITE = 'web'");
    final Set<String> both = new TreeSet<>();
    for (long c : new long[] {5, 6}) {
      for (String s : new String[] {"web", "ios"}) {
        both.add("s" + shardOfLongString(c, s, CHUNKS, 4));
      }
    }
    assertReached(both, "SELECT * FROM VISITS WHERE CUSTOMER_ID IN (5, 6)"
        + " AND SITE IN ('web', 'ios')");
    assertReached(ALL, "SELECT * FROM VISITS WHERE CUSTOMER_ID = 5");
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
    final List<String> byParameters = new ArrayList<>();
    try (PreparedStatement p = connection.prepareStatement(sql)) {
      for (int i = 0; i < keys.length; i++) {
        p.setLong(i + 1, keys[i]);
      }
      fixture.shards().resetCounters();
      try (ResultSet rs = p.executeQuery()) {
        byParameters.addAll(ShardFixture.rows(rs));
      }
    }
    final Set<String> reached = new TreeSet<>(fixture.shardsReached());
    assertTrue(reached.size() > 1, "the keys should span several shards: " + reached);
    for (String shard : reached) {
      final Set<Object> own = new TreeSet<>();
      for (long key : keys) {
        if (hash(key).contains(shard)) {
          own.add(key);
        }
      }
      final Set<Object> sent = new TreeSet<>();
      fixture.shards().executions(shard).forEach(e -> e.parameters()
          .forEach(v -> sent.add(((Number) v).longValue())));
      assertEquals(own, sent, shard);
    }
    assertEquals(sorted(rows(sql.replace("(?, ?, ?, ?, ?, ?, ?, ?)", "(1, 2, 3, 4, 5, 6, 7, 8)"))),
        sorted(byParameters));
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
    assertReached(Set.of("s1"), "SELECT * FROM EVENTS WHERE EVENT_DAY = DATE '2020-01-01'");
    assertReached(Set.of("s1"),
        "SELECT * FROM EVENTS WHERE EVENT_DAY = CAST('2020-01-01' AS DATE)");
    assertReached(Set.of("s0"), "SELECT * FROM EVENTS WHERE EVENT_DAY < DATE '2020-01-01'");
    assertReached(Set.of("s0", "s1"),
        "SELECT * FROM EVENTS WHERE EVENT_DAY <= DATE '2020-01-01'");
    assertReached(Set.of("s3"), "SELECT * FROM EVENTS WHERE EVENT_DAY > DATE '2021-12-31'");
    assertReached(Set.of("s3"), "SELECT * FROM EVENTS WHERE EVENT_DAY >= DATE '2022-01-01'");
    assertReached(Set.of("s1", "s2"), "SELECT * FROM EVENTS"
        + " WHERE EVENT_DAY BETWEEN DATE '2020-06-01' AND DATE '2021-02-01'");
    assertReached(Set.of("s0", "s3"), "SELECT * FROM EVENTS"
        + " WHERE EVENT_DAY IN (DATE '2019-12-31', DATE '2022-01-01')");
    assertReached(Set.of("s0", "s3"), "SELECT * FROM EVENTS"
        + " WHERE EVENT_DAY < DATE '2019-01-01' OR EVENT_DAY > DATE '2022-06-01'");
    assertReached(ALL, "SELECT * FROM EVENTS WHERE WEIGHT IS NULL");
  }

  @Test void rangeOnNumbers() throws SQLException {
    assertReached(Set.of("s0", "s1"),
        "SELECT * FROM LEDGER WHERE ENTRY_ID BETWEEN 990 AND 1010");
    assertReached(Set.of("s2"), "SELECT * FROM LEDGER WHERE ENTRY_ID = 2000");
    // Outside every range: no shard can hold such a key.
    assertReached(NONE, "SELECT * FROM LEDGER WHERE ENTRY_ID >= 5000");
    assertReached(NONE, "SELECT * FROM LEDGER WHERE ENTRY_ID < 0");
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
    assertReached(Set.of("s0"), "SELECT * FROM ACCOUNTS WHERE REGION = 'EU'");
    assertReached(Set.of("s1", "s2"), "SELECT * FROM ACCOUNTS WHERE REGION IN ('US', 'APAC')");
    assertReached(Set.of("s3"), "SELECT * FROM ACCOUNTS WHERE REGION = 'LATAM'");
    assertReached(Set.of("s3"), "SELECT * FROM ACCOUNTS WHERE REGION IS NULL");
    // s0 also lists UK, so <> 'EU' still needs it; excluding both of its values drops it.
    assertReached(ALL, "SELECT * FROM ACCOUNTS WHERE REGION <> 'EU'");
    assertReached(Set.of("s1", "s2", "s3"),
        "SELECT * FROM ACCOUNTS WHERE REGION NOT IN ('EU', 'UK')");
    assertReached(Set.of("s3"),
        "SELECT * FROM ACCOUNTS WHERE REGION NOT IN ('EU', 'UK', 'US', 'APAC')");
    assertReached(Set.of("s0", "s2"),
        "SELECT * FROM ACCOUNTS WHERE REGION = 'EU' OR REGION = 'APAC'");
    assertReached(ALL, "SELECT * FROM ACCOUNTS WHERE REGION = 'EU' OR BALANCE < 0");
  }

  @Test void duplicatedTableReadsOneShard() throws SQLException {
    assertReached(Set.of("s0"), "SELECT * FROM COUNTRIES");
    assertReached(Set.of("s0"), "SELECT NAME FROM COUNTRIES WHERE REGION = 'EU'");
  }

  private static Set<String> hash(long... ids) {
    final Set<String> shards = new TreeSet<>();
    for (long id : ids) {
      shards.add("s" + shardOfLong(id, CHUNKS, 4));
    }
    return shards;
  }

  private void assertReached(Set<String> expected, String sql) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(sql)) {
      assertEquals(new TreeSet<>(expected), reached(p), sql);
    }
  }
}
