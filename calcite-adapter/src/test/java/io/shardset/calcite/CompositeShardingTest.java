package io.shardset.calcite;

import io.shardset.testing.QueryAssert;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Composite sharding over four H2 shards: s0 and s1 form shardspace {@code fast}, s2 and s3
 * shardspace {@code slow}, each with 240 chunks (120 per shard). Results equal an unsharded
 * copy; the shards reached are counted at the shards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompositeShardingTest {
  private static final String[] DDL = {
      "CREATE TABLE ACCOUNTS (CUST_ID BIGINT NOT NULL, CLASS VARCHAR(8), REGION VARCHAR(8)"
          + " NOT NULL, BALANCE DECIMAL(12, 2) NOT NULL)",
      "CREATE TABLE TRADES (TRADE_ID BIGINT PRIMARY KEY, CUST_ID BIGINT NOT NULL,"
          + " CLASS VARCHAR(8), AMOUNT DECIMAL(12, 2) NOT NULL)",
      "CREATE TABLE SIGNUPS (CUST_ID BIGINT NOT NULL, SIGNUP_DAY DATE NOT NULL,"
          + " PLAN VARCHAR(8) NOT NULL)",
      "CREATE TABLE FAST_PROFILES (CUST_ID BIGINT PRIMARY KEY, NICK VARCHAR(20) NOT NULL)",
      "CREATE TABLE REGIONS (REGION VARCHAR(8) PRIMARY KEY, NAME VARCHAR(20) NOT NULL)"};

  private static final String BY_CLASS = """
      "partitionBy": {"column": "CLASS", "method": "list",
        "sets": [{"name": "gold", "values": ["gld"], "shardspace": "fast"},
                 {"name": "silver", "values": ["slv"], "shardspace": "slow"},
                 {"name": "other", "default": true, "shardspace": "slow"}]}""";

  private static final String TABLES = String.format(Locale.ROOT, """
      "tables": [
        {"name": "ACCOUNTS", "method": "composite", "shardKey": ["CUST_ID"], %1$s},
        {"name": "TRADES", "method": "composite", "shardKey": ["CUST_ID"], %1$s},
        {"name": "SIGNUPS", "method": "composite", "shardKey": ["CUST_ID"],
         "partitionBy": {"column": "SIGNUP_DAY", "method": "range",
           "sets": [{"name": "old", "to": "2020-01-01", "shardspace": "slow"},
                    {"name": "new", "from": "2020-01-01", "shardspace": "fast"}]}},
        {"name": "FAST_PROFILES", "method": "consistent-hash", "shardKey": ["CUST_ID"],
         "shardspace": "fast"},
        {"name": "REGIONS", "method": "duplicated"}]""", BY_CLASS);

  static final Map<String, String> SHARDSPACES =
      Map.of("s0", "fast", "s1", "fast", "s2", "slow", "s3", "slow");
  private static final Set<String> FAST = Set.of("s0", "s1");
  private static final Set<String> SLOW = Set.of("s2", "s3");
  private static final Set<String> ALL = Set.of("s0", "s1", "s2", "s3");
  private static final String[] CLASSES = {"gld", "slv", "brz", null};
  private static final String[] REGIONS = {"EU", "US", "APAC"};

  private ShardFixture fixture;
  private Connection connection;

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    final String model = fixture.model(TABLES, SHARDSPACES);
    try (Connection loading = ShardFixture.connect(model)) {
      load(loading);
    }
    connection = ShardFixture.connect(model);
  }

  @AfterAll void tearDown() throws SQLException {
    connection.close();
    fixture.close();
  }

  private void load(Connection loading) throws SQLException {
    final SplittableRandom r = new SplittableRandom(7);
    final List<Object[]> accounts = new ArrayList<>();
    for (long id = 1; id <= 200; id++) {
      accounts.add(new Object[] {id, CLASSES[r.nextInt(CLASSES.length)],
          REGIONS[r.nextInt(REGIONS.length)], BigDecimal.valueOf(r.nextInt(100_000), 2)});
    }
    // One customer in every class: one account per shardspace and more.
    for (String klass : CLASSES) {
      accounts.add(new Object[] {7L, klass, "EU", BigDecimal.ONE});
    }
    fixture.load(loading, "ACCOUNTS", accounts);
    final List<Object[]> trades = new ArrayList<>();
    for (long id = 1; id <= 800; id++) {
      final Object[] account = accounts.get(r.nextInt(accounts.size()));
      // Mostly the account's own class; sometimes another, which must not join.
      final Object klass = r.nextInt(5) == 0 ? CLASSES[r.nextInt(CLASSES.length)] : account[1];
      trades.add(new Object[] {id, account[0], klass, BigDecimal.valueOf(r.nextInt(50_000), 2)});
    }
    fixture.load(loading, "TRADES", trades);
    final List<Object[]> signups = new ArrayList<>();
    for (long id = 1; id <= 200; id++) {
      signups.add(new Object[] {id, LocalDate.of(2018, 1, 1).plusDays(r.nextInt(1500)),
          r.nextBoolean() ? "basic" : "pro"});
    }
    signups.add(new Object[] {7L, LocalDate.of(2019, 12, 31), "basic"});
    signups.add(new Object[] {7L, LocalDate.of(2020, 1, 1), "pro"});
    fixture.load(loading, "SIGNUPS", signups);
    final List<Object[]> profiles = new ArrayList<>();
    for (long id = 1; id <= 200; id++) {
      profiles.add(new Object[] {id, "nick " + id});
    }
    fixture.load(loading, "FAST_PROFILES", profiles);
    fixture.load(loading, "REGIONS", List.of(new Object[] {"EU", "Europe"},
        new Object[] {"US", "United States"}, new Object[] {"APAC", "Asia Pacific"}));
  }

  /** The fast shardspace's shard of a key: 240 chunks over s0, s1. */
  private static String fast(long key) {
    return "s" + shardOfLong(key, 240, 2);
  }

  /** The slow shardspace's shard of a key: 240 chunks over s2, s3. */
  private static String slow(long key) {
    return "s" + (2 + shardOfLong(key, 240, 2));
  }

  @Test void loadingPlacesRowsInTheirSetsShardspace() throws SQLException {
    // Independently of the routing code: each shard holds exactly the rows the spec's
    // formula puts there.
    for (String shard : ALL) {
      final List<String> expected = new ArrayList<>();
      for (String row : fixture.oracleRows("SELECT CUST_ID, CLASS FROM ACCOUNTS")) {
        final String[] parts = row.split(", ");
        final long key = Long.parseLong(parts[0]);
        if (("gld".equals(parts[1]) ? fast(key) : slow(key)).equals(shard)) {
          expected.add(row);
        }
      }
      final List<String> actual = new ArrayList<>();
      try (Connection c = fixture.shards().endpoint(shard).connect();
           Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT CUST_ID, CLASS FROM ACCOUNTS")) {
        actual.addAll(ShardFixture.rows(rs));
      }
      Collections.sort(expected);
      Collections.sort(actual);
      assertEquals(expected, actual, shard);
    }
  }

  @Test void partitionValuePrunesToItsShardspace() throws SQLException {
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'gld'")
        .reaches(FAST).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'slv'")
        .reaches(SLOW).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'brz'")
        .reaches(SLOW).returnsUnsharded(); // the default set
    sql("SELECT * FROM ACCOUNTS WHERE CLASS IS NULL")
        .reaches(SLOW).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE CLASS IN ('gld', 'slv')")
        .reaches(ALL).returnsUnsharded();
  }

  @Test void bothLevelsPruneToOneShard() throws SQLException {
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'gld' AND CUST_ID = 7")
        .reaches(fast(7)).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'slv' AND CUST_ID = 7")
        .reaches(slow(7)).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'gld' AND CUST_ID IN (7, 8, 9)")
        .reaches(fast(7), fast(8), fast(9)).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS"
        + " WHERE (CLASS = 'gld' AND CUST_ID = 7) OR (CLASS = 'slv' AND CUST_ID = 8)")
        .reaches(fast(7), slow(8)).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'gld' AND CLASS = 'slv'")
        .reaches().returnsUnsharded();
  }

  @Test void shardKeyAloneReachesOneShardPerShardspace() throws SQLException {
    sql("SELECT * FROM ACCOUNTS WHERE CUST_ID = 7")
        .reaches(fast(7), slow(7)).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE CUST_ID IN (7, 11)")
        .reaches(fast(7), slow(7), fast(11), slow(11)).returnsUnsharded();
  }

  @Test void unprunablePredicatesReachEveryShard() throws SQLException {
    sql("SELECT * FROM ACCOUNTS")
        .reaches(ALL).returnsUnsharded();
    sql("SELECT * FROM ACCOUNTS WHERE CUST_ID > 100")
        .reaches(ALL).returnsUnsharded();
    // Text ranges compare by each shard's collation, which routing cannot know.
    sql("SELECT * FROM ACCOUNTS WHERE CLASS > 'a'")
        .reaches(ALL).returnsUnsharded();
    // Either set gold (all of fast) or key 7 (one shard in each shardspace).
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'gld' OR CUST_ID = 7")
        .reaches(fast(7), slow(7), "s0", "s1").returnsUnsharded();
  }

  @Test void parametersPruneWhenTheStatementExecutes() throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM ACCOUNTS WHERE CLASS = ? AND CUST_ID = ?")) {
      p.setString(1, "gld");
      p.setInt(2, 7);
      assertEquals(Set.of(fast(7)), fixture.reached(p));
      p.setString(1, "xyz");
      p.setLong(2, 7);
      assertEquals(Set.of(slow(7)), fixture.reached(p));
    }
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM ACCOUNTS WHERE CLASS = ?")) {
      p.setString(1, "gld");
      assertEquals(FAST, fixture.reached(p));
    }
  }

  @Test void rangesOfARangePartitionedColumn() throws SQLException {
    sql("SELECT * FROM SIGNUPS WHERE SIGNUP_DAY >= DATE '2020-01-01'")
        .reaches(FAST).returnsUnsharded();
    sql("SELECT * FROM SIGNUPS WHERE SIGNUP_DAY < DATE '2020-01-01'")
        .reaches(SLOW).returnsUnsharded();
    sql("SELECT * FROM SIGNUPS WHERE SIGNUP_DAY <= DATE '2019-12-31' AND CUST_ID = 7")
        .reaches(slow(7)).returnsUnsharded();
    sql("SELECT * FROM SIGNUPS"
        + " WHERE SIGNUP_DAY BETWEEN DATE '2020-01-01' AND DATE '2020-06-30' AND CUST_ID = 7")
        .reaches(fast(7)).returnsUnsharded();
    sql("SELECT * FROM SIGNUPS"
        + " WHERE SIGNUP_DAY BETWEEN DATE '2019-06-01' AND DATE '2020-06-30' AND CUST_ID = 7")
        .reaches(fast(7), slow(7)).returnsUnsharded();
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT * FROM SIGNUPS WHERE SIGNUP_DAY > ? AND CUST_ID = ?")) {
      p.setDate(1, Date.valueOf("2021-01-01"));
      p.setLong(2, 7);
      assertEquals(Set.of(fast(7)), fixture.reached(p));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM ACCOUNTS WHERE CLASS = 'gld'",
      "SELECT * FROM ACCOUNTS WHERE CLASS = 'gld' AND CUST_ID = 7",
      "SELECT * FROM ACCOUNTS WHERE CUST_ID = 7",
      "SELECT * FROM ACCOUNTS WHERE CLASS IS NULL OR CLASS = 'brz'",
      "SELECT * FROM ACCOUNTS WHERE CLASS IN ('gld', 'slv') AND CUST_ID IN (7, 8, 9, 10)",
      "SELECT * FROM ACCOUNTS WHERE (CLASS = 'gld' AND CUST_ID = 7)"
          + " OR (CLASS = 'slv' AND CUST_ID < 20)",
      "SELECT CLASS, COUNT(*), SUM(BALANCE) FROM ACCOUNTS GROUP BY CLASS",
      "SELECT CLASS, CUST_ID, COUNT(*) FROM ACCOUNTS GROUP BY CLASS, CUST_ID",
      "SELECT CUST_ID, COUNT(*) FROM ACCOUNTS GROUP BY CUST_ID",
      "SELECT * FROM SIGNUPS WHERE SIGNUP_DAY >= DATE '2020-01-01'",
      "SELECT * FROM SIGNUPS WHERE SIGNUP_DAY < DATE '2020-01-01' AND CUST_ID IN (7, 8)",
      "SELECT PLAN, COUNT(*) FROM SIGNUPS WHERE SIGNUP_DAY BETWEEN DATE '2019-06-01'"
          + " AND DATE '2020-06-30' GROUP BY PLAN",
      // co-located: partitioned alike, joined on the partition column and the shard key
      "SELECT a.CUST_ID, a.CLASS, t.TRADE_ID FROM ACCOUNTS a JOIN TRADES t"
          + " ON a.CLASS = t.CLASS AND a.CUST_ID = t.CUST_ID",
      "SELECT a.CUST_ID, t.TRADE_ID FROM ACCOUNTS a LEFT JOIN TRADES t"
          + " ON a.CLASS = t.CLASS AND a.CUST_ID = t.CUST_ID WHERE a.CLASS = 'slv'",
      // co-located within shardspace fast: the composite side is restricted to it
      "SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a JOIN FAST_PROFILES p"
          + " ON a.CUST_ID = p.CUST_ID WHERE a.CLASS = 'gld'",
      "SELECT a.CUST_ID, p.NICK FROM FAST_PROFILES p JOIN ACCOUNTS a"
          + " ON a.CUST_ID = p.CUST_ID WHERE a.CLASS = 'gld' AND a.CUST_ID < 50",
      // with a duplicated table
      "SELECT a.CUST_ID, r.NAME FROM ACCOUNTS a JOIN REGIONS r ON a.REGION = r.REGION",
      // not shard-local: joined above the scans
      "SELECT a.CUST_ID, t.TRADE_ID FROM ACCOUNTS a JOIN TRADES t ON a.CUST_ID = t.CUST_ID",
      "SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a JOIN FAST_PROFILES p"
          + " ON a.CUST_ID = p.CUST_ID",
      "SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a JOIN FAST_PROFILES p"
          + " ON a.CUST_ID = p.CUST_ID WHERE a.CLASS = 'slv'",
      "SELECT p.CUST_ID, a.CLASS FROM FAST_PROFILES p LEFT JOIN ACCOUNTS a"
          + " ON a.CUST_ID = p.CUST_ID AND a.CLASS = 'gld'",
      "SELECT a.CUST_ID, s.PLAN FROM ACCOUNTS a JOIN SIGNUPS s ON a.CUST_ID = s.CUST_ID"})
  void resultsEqualUnsharded(String sql) {
    sql(sql).returnsSomeRows().returnsUnsharded();
  }

  @Test void compositeTablesPartitionedAlikeJoinInsideEachShard() throws SQLException {
    assertJoinedInside(sql("SELECT a.CUST_ID, t.TRADE_ID FROM ACCOUNTS a JOIN TRADES t"
        + " ON a.CLASS = t.CLASS AND a.CUST_ID = t.CUST_ID"),
        ALL);
    assertJoinedInside(sql("SELECT a.CUST_ID, t.TRADE_ID FROM ACCOUNTS a"
        + " JOIN TRADES t ON a.CLASS = t.CLASS AND a.CUST_ID = t.CUST_ID"
        + " WHERE t.CLASS = 'gld' AND a.CUST_ID = 7"),
        Set.of(fast(7)));
  }

  @Test void compositeRestrictedToAShardspaceJoinsItsHashTableInside() throws SQLException {
    assertJoinedInside(sql("SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a JOIN FAST_PROFILES p"
        + " ON a.CUST_ID = p.CUST_ID WHERE a.CLASS = 'gld'"),
        FAST);
    assertJoinedInside(sql("SELECT a.CUST_ID, p.NICK FROM FAST_PROFILES p JOIN ACCOUNTS a"
        + " ON p.CUST_ID = a.CUST_ID WHERE a.CLASS = 'gld'"),
        FAST);
    assertJoinedInside(sql("SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a"
        + " JOIN FAST_PROFILES p ON a.CUST_ID = p.CUST_ID WHERE a.CLASS = 'gld'"
        + " AND a.CUST_ID = 7"),
        Set.of(fast(7)));
  }

  @Test void unsafeJoinsRunAboveTheShards() throws SQLException {
    for (String sql : List.of(
        // the partition column is not joined: equal keys of different classes
        "SELECT a.CUST_ID, t.TRADE_ID FROM ACCOUNTS a JOIN TRADES t ON a.CUST_ID = t.CUST_ID",
        // accounts of every shardspace, each hashed by its own chunks
        "SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a JOIN FAST_PROFILES p"
            + " ON a.CUST_ID = p.CUST_ID",
        // restricted, but to shardspace slow, where FAST_PROFILES does not live
        "SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a JOIN FAST_PROFILES p"
            + " ON a.CUST_ID = p.CUST_ID WHERE a.CLASS = 'slv'",
        // range-partitioned differently
        "SELECT a.CUST_ID, s.PLAN FROM ACCOUNTS a JOIN SIGNUPS s ON a.CUST_ID = s.CUST_ID"
            + " AND a.CLASS = s.PLAN")) {
      sql(sql).sendsNothingContaining("JOIN");
    }
    // A restriction known only at execution is not enough to join inside the shards.
    sql("SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a JOIN FAST_PROFILES p"
        + " ON a.CUST_ID = p.CUST_ID WHERE a.CLASS = ?")
        .withBinding(p -> p.setString(1, "gld"), "setString gld")
        .sendsNothingContaining("JOIN");
  }

  @Test void explainShowsTwoLevelPruning() {
    sql("SELECT * FROM ACCOUNTS WHERE CLASS = 'gld' AND CUST_ID = 7")
        .explainIs("EnumerableShardScan(table=[[S, ACCOUNTS]], shards=[1 of 4: " + fast(7)
            + "], sql=[SELECT * FROM \"ACCOUNTS\" WHERE \"CLASS\" = 'gld' AND \"CUST_ID\" = 7])\n");
  }

  /** Asserts that the join ran as one joined query on each of exactly these shards. */
  private static void assertJoinedInside(QueryAssert join, Set<String> shards) {
    join.reaches(shards).executes(shards.size()).sendsContaining("JOIN").returnsUnsharded();
  }

  private QueryAssert sql(String sql) {
    return fixture.sql(connection, sql);
  }
}
