package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.prepare.PlanCache;
import io.shardset.testing.Connector;
import io.shardset.testing.QueryAssert;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlExplainLevel;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On {@code jdbc:shardset:} a statement gets the plan {@code jdbc:calcite:} makes of it where a
 * literal decides the plan's shape (a composite table's partition column, a subpartition
 * column), while statements that differ only in shard key literals still share one plan; and
 * EXPLAIN shows the plan that the statement runs. Four H2 shards: s0 and s1 form shardspace
 * {@code fast}, s2 and s3 shardspace {@code slow}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlanCacheFidelityTest {
  private static final String[] DDL = {
      "CREATE TABLE ACCOUNTS (CUST_ID BIGINT NOT NULL, CLASS VARCHAR(8),"
          + " BALANCE DECIMAL(12, 2) NOT NULL)",
      "CREATE TABLE FAST_PROFILES (CUST_ID BIGINT PRIMARY KEY, NICK VARCHAR(20) NOT NULL)",
      "CREATE TABLE SLOW_PROFILES (CUST_ID BIGINT PRIMARY KEY, NICK VARCHAR(20) NOT NULL)",
      tickets("TICKETS_LOW"), tickets("TICKETS_MID"), tickets("TICKETS_HIGH"),
      "CREATE TABLE OFFICES (OFFICE_ID INTEGER PRIMARY KEY, REGION VARCHAR(8) NOT NULL)"};

  private static final String TABLES = """
      "tables": [
        {"name": "ACCOUNTS", "method": "composite", "shardKey": ["CUST_ID"],
         "partitionBy": {"column": "CLASS", "method": "list",
           "sets": [{"name": "gold", "values": ["gld", "plt"], "shardspace": "fast"},
                    {"name": "silver", "values": ["slv"], "shardspace": "slow"},
                    {"name": "other", "default": true, "shardspace": "slow"}]}},
        {"name": "FAST_PROFILES", "method": "consistent-hash", "shardKey": ["CUST_ID"],
         "shardspace": "fast"},
        {"name": "SLOW_PROFILES", "method": "consistent-hash", "shardKey": ["CUST_ID"],
         "shardspace": "slow"},
        {"name": "TICKETS", "method": "range", "shardKey": ["TICKET_ID"],
         "ranges": [{"shard": "s0", "to": 100}, {"shard": "s1", "from": 100, "to": 200},
                    {"shard": "s2", "from": 200, "to": 300}, {"shard": "s3", "from": 300}],
         "subpartitions": {"column": "PRIORITY", "physicalName": "tickets_{name}",
           "ranges": [{"name": "low", "to": 2}, {"name": "mid", "from": 2, "to": 4},
                      {"name": "high", "from": 4, "to": 6}]}},
        {"name": "OFFICES", "method": "list", "shardKey": ["REGION"],
         "lists": [{"shard": "s0", "values": ["EU", "UK"]}, {"shard": "s1", "values": ["US"]},
                   {"shard": "s2", "values": ["APAC"]}, {"shard": "s3", "default": true}]}]""";

  private static final Map<String, String> SHARDSPACES =
      Map.of("s0", "fast", "s1", "fast", "s2", "slow", "s3", "slow");
  private static final Set<String> FAST = Set.of("s0", "s1");
  private static final Set<String> SLOW = Set.of("s2", "s3");
  private static final String[] CLASSES = {"gld", "plt", "slv", "brz", null};

  private ShardFixture fixture;
  private String model;
  private Connection shardset;
  private Connection calcite;
  private final AtomicInteger javaPlans = new AtomicInteger();

  private static String tickets(String name) {
    return "CREATE TABLE " + name + " (TICKET_ID INTEGER PRIMARY KEY, CUSTOMER_ID BIGINT"
        + " NOT NULL, PRIORITY INTEGER NOT NULL)";
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    try (Statement s = fixture.oracle().createStatement()) {
      s.execute(tickets("TICKETS"));
    }
    model = fixture.model(TABLES, SHARDSPACES);
    try (Connection loading = ShardFixture.connect(model)) {
      load(loading);
    }
    shardset = Connector.SHARDSET.open(model);
    calcite = Connector.CALCITE.open(model);
  }

  @AfterAll void tearDown() throws SQLException {
    shardset.close();
    calcite.close();
    fixture.close();
  }

  @BeforeEach void dropPlans() throws SQLException {
    cache().invalidate(shardset);
    javaPlans.set(0);
  }

  private void load(Connection loading) throws SQLException {
    final SplittableRandom r = new SplittableRandom(11);
    final List<Object[]> accounts = new ArrayList<>();
    final List<Object[]> fast = new ArrayList<>();
    final List<Object[]> slow = new ArrayList<>();
    for (long id = 1; id <= 120; id++) {
      accounts.add(new Object[] {id, CLASSES[r.nextInt(CLASSES.length)],
          BigDecimal.valueOf(r.nextInt(100_000), 2)});
      fast.add(new Object[] {id, "fast " + id});
      slow.add(new Object[] {id, "slow " + id});
    }
    // Customer 7 in every class, customer 8 in the two slow ones.
    for (String klass : CLASSES) {
      accounts.add(new Object[] {7L, klass, BigDecimal.ONE});
    }
    accounts.add(new Object[] {8L, "slv", BigDecimal.TEN});
    accounts.add(new Object[] {8L, "brz", BigDecimal.TEN});
    fixture.load(loading, "ACCOUNTS", accounts);
    fixture.load(loading, "FAST_PROFILES", fast);
    fixture.load(loading, "SLOW_PROFILES", slow);
    final List<Object[]> tickets = new ArrayList<>();
    for (int id = 0; id < 400; id++) {
      tickets.add(new Object[] {id, 1 + (long) r.nextInt(120), r.nextInt(6)});
    }
    fixture.load(loading, "TICKETS", tickets);
    final String[] regions = {"EU", "UK", "US", "APAC", "LATAM"};
    final List<Object[]> offices = new ArrayList<>();
    for (int id = 0; id < 50; id++) {
      offices.add(new Object[] {id, regions[id % regions.length]});
    }
    fixture.load(loading, "OFFICES", offices);
  }

  private static String slow(long key) {
    return "s" + (2 + shardOfLong(key, 240, 2));
  }

  private static String fast(long key) {
    return "s" + shardOfLong(key, 240, 2);
  }

  /** The shard of a TICKET_ID: ranges of 100 on s0 to s3. */
  private static String rangeShard(long ticket) {
    return "s" + Math.min(3, ticket / 100);
  }

  private static String profileJoin(String profiles, String klass) {
    return String.format(Locale.ROOT, "SELECT a.CUST_ID, p.NICK FROM ACCOUNTS a JOIN %s p"
        + " ON a.CUST_ID = p.CUST_ID WHERE a.CLASS = '%s'", profiles, klass);
  }

  @Test void partitionLiteralsEachPushTheirJoinIntoTheShards() throws SQLException {
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (String klass : new String[] {"slv", "brz", "slv"}) {
        assertJoinedInside(shardsetSql(profileJoin("SLOW_PROFILES", klass)), SLOW);
      }
      for (String klass : new String[] {"gld", "plt"}) {
        assertJoinedInside(shardsetSql(profileJoin("FAST_PROFILES", klass)), FAST);
      }
      // Shardspace slow holds no FAST_PROFILES: that join runs above the scans on either URL.
      shardsetSql(profileJoin("FAST_PROFILES", "slv")).sendsNothingContaining("JOIN")
          .returnsUnsharded();
    }
    // One plan per distinct partition value; the repeated 'slv' is a cache hit.
    assertEquals(5, javaPlans.get());
  }

  @Test void aKeyLiteralBesideAPartitionLiteralStaysInAJoinOnly() throws SQLException {
    // In a join the composite side's whole key condition must be known when planning.
    final long hits = cache().hits();
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (long key : new long[] {7, 8, 7, 11}) {
        final String sql = profileJoin("SLOW_PROFILES", "slv") + " AND a.CUST_ID = " + key;
        assertJoinedInside(shardsetSql(sql), Set.of(slow(key)));
      }
    }
    assertEquals(3, javaPlans.get());
    assertEquals(1, cache().hits() - hits);
    // A point query of the composite table alone shares one plan for every key.
    javaPlans.set(0);
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (long key : new long[] {7, 8, 11}) {
        shardsetSql("SELECT CUST_ID, BALANCE FROM ACCOUNTS WHERE CLASS = 'slv' AND CUST_ID = "
            + key).reaches(slow(key)).returnsUnsharded();
      }
    }
    assertEquals(1, javaPlans.get());
    assertEquals(3, cache().hits() - hits);
  }

  @Test void keyLiteralsShareOnePlanAndEachPrunesToItsShards() throws SQLException {
    final long hits = cache().hits();
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (long key : new long[] {7, 8, 11, 7}) {
        shardsetSql("SELECT CUST_ID, CLASS FROM ACCOUNTS WHERE CUST_ID = " + key)
            .reaches(fast(key), slow(key)).returnsUnsharded();
        shardsetSql("SELECT TICKET_ID FROM TICKETS WHERE TICKET_ID = " + (key * 30))
            .reaches(rangeShard(key * 30)).returnsUnsharded();
      }
    }
    assertEquals(2, javaPlans.get());
    assertEquals(6, cache().hits() - hits);
  }

  @Test void aConditionEveryBranchOfAnOrRepeatsIsPushedIntoTheShards() throws SQLException {
    // As TPC-H Q19 repeats its shipping conditions in each branch: with the repeated literal
    // as written the planner takes the condition out of the OR, into the TICKETS scans; as
    // two parameters it could not tell they are the same, and every ticket left the shards.
    final String sql = "SELECT t.TICKET_ID, p.NICK FROM SLOW_PROFILES p JOIN TICKETS t"
        + " ON t.CUSTOMER_ID = p.CUST_ID WHERE (p.NICK LIKE 'n1%' AND t.TICKET_ID < 150)"
        + " OR (p.NICK LIKE 'n2%' AND t.TICKET_ID < 150)";
    // TICKET_ID < 150 is on s0 and s1: s2 and s3 get only their SLOW_PROFILES statement.
    final String profiles =
        "SELECT * FROM \"SLOW_PROFILES\" WHERE \"NICK\" LIKE 'n1%' OR \"NICK\" LIKE 'n2%'";
    shardsetSql(sql).sends("s2", profiles).sends("s3", profiles).returnsUnsharded();
    // A literal the query writes once is still a parameter of the shared plan.
    shardsetSql("SELECT TICKET_ID FROM TICKETS WHERE TICKET_ID < 150 AND CUSTOMER_ID = 3")
        .sendsContaining("\"CUSTOMER_ID\" = ?").returnsUnsharded();
  }

  @Test void subpartitionLiteralsPlanAsWritten() throws SQLException {
    // No subpartition holds priority 9: planned with the literal, the scan reaches no shard;
    // a parameter would have sent the query to every shard.
    final String none = "SELECT COUNT(*) FROM TICKETS WHERE PRIORITY = 9";
    shardsetSql(none).reaches().returnsUnsharded();
    assertEquals(explain(calcite, none), explain(shardset, none));
    // Beside a key literal, which is a parameter.
    final String noneBelow = "SELECT TICKET_ID FROM TICKETS WHERE PRIORITY = 9 AND TICKET_ID < 150";
    shardsetSql(noneBelow).reaches().returnsUnsharded();
    final String plan9 = explain(shardset, noneBelow);
    assertTrue(plan9.contains("shards=[0 of 4], subpartitions=[0 of 3]"), plan9);
    final String high = "SELECT TICKET_ID, CUSTOMER_ID FROM TICKETS WHERE PRIORITY = 5";
    shardsetSql(high).reachesAll().sendsContaining("FROM \"TICKETS_HIGH\" WHERE")
        .returnsUnsharded();
    final String plan = explain(shardset, high);
    assertEquals(explain(calcite, high), plan);
    assertTrue(plan.contains("subpartitions=[1 of 3: high]"), plan);
    // The key literal beside it is still a parameter: one plan for both keys.
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (int key : new int[] {150, 250}) {
        shardsetSql("SELECT TICKET_ID FROM TICKETS WHERE PRIORITY = 3 AND TICKET_ID = " + key)
            .reaches(rangeShard(key)).sendsContaining("FROM \"TICKETS_MID\" WHERE")
            .returnsUnsharded();
      }
    }
    assertEquals(1, javaPlans.get());
  }

  @Test void listKeyExclusionsPruneAsWrittenAndEqualitiesShare() throws SQLException {
    // NOT IN literals on a list key prune the shards whose every value they exclude; as
    // parameters they would not prune at all.
    shardsetSql("SELECT OFFICE_ID FROM OFFICES WHERE REGION NOT IN ('EU', 'UK')")
        .reaches("s1", "s2", "s3").returnsUnsharded();
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (String region : new String[] {"EU", "US", "LATAM"}) {
        shardsetSql("SELECT OFFICE_ID FROM OFFICES WHERE REGION = '" + region + "'")
            .reaches(region.equals("EU") ? "s0" : region.equals("US") ? "s1" : "s3")
            .returnsUnsharded();
      }
    }
    assertEquals(1, javaPlans.get());
  }

  @Test void explainShowsThePlanThatRuns() throws SQLException {
    // A partition literal stays: the plan that runs is the literal text's, jdbc:calcite:'s.
    final String join = profileJoin("SLOW_PROFILES", "brz");
    final String ran = planOfFirstRun(join);
    assertEquals(ran, explain(shardset, join));
    assertEquals(explain(calcite, join), explain(shardset, join));
    assertTrue(ran.startsWith("EnumerableShardScan(table=[[S, ACCOUNTS], [S, SLOW_PROFILES]],"
        + " shards=[2 of 4: s2, s3]"), ran);
    // A key literal is a parameter: EXPLAIN shows the shared plan, planned for key 8's
    // statement and run by key 7's, with ?0 where the key was, and the value 7 takes.
    final String byKey = "SELECT CUST_ID, CLASS FROM ACCOUNTS WHERE CUST_ID = ";
    final String shared = planOfFirstRun(byKey + 8);
    assertEquals(shared + "?0 = 7\n", explain(shardset, byKey + 7));
    final String nick = explain(shardset,
        "SELECT CUST_ID FROM FAST_PROFILES WHERE NICK = 'it''s' AND CUST_ID = 3");
    assertTrue(nick.contains("WHERE \"NICK\" = ? AND \"CUST_ID\" = ?])\n?0 = 'it''s'\n?1 = 3\n"),
        nick);
    assertTrue(shared.contains("\"CUST_ID\" = ?"), shared);
    assertNotEquals(explain(calcite, byKey + 7), shared);
    // Other forms of EXPLAIN plan the text that runs again: the parameterized one.
    final String json = explain(shardset, "EXPLAIN PLAN AS JSON FOR ", byKey + 7);
    assertTrue(json.contains("\\\"CUST_ID\\\" = ?"), json);
  }

  /** Asserts that the join ran as one joined query on each of exactly these shards. */
  private static void assertJoinedInside(QueryAssert join, Set<String> shards) {
    join.reaches(shards).executes(shards.size()).sendsContaining("JOIN").returnsUnsharded();
  }

  /** Runs a statement that this connection has not planned yet, and returns the EXPLAIN text
   * of the plan made for it. */
  private String planOfFirstRun(String sql) throws SQLException {
    final List<String> plans = new ArrayList<>();
    final Consumer<RelRoot> writer = root -> plans.add(RelOptUtil.dumpPlan("", root.rel,
        SqlExplainFormat.TEXT, SqlExplainLevel.EXPPLAN_ATTRIBUTES));
    try (Hook.Closeable ignored = Hook.PLAN_BEFORE_IMPLEMENTATION.addThread(writer)) {
      shardsetSql(sql).returnsUnsharded();
    }
    assertEquals(1, plans.size(), sql);
    return plans.get(0);
  }

  private static String explain(Connection connection, String sql) throws SQLException {
    return explain(connection, "EXPLAIN PLAN FOR ", sql);
  }

  private static String explain(Connection connection, String explain, String sql)
      throws SQLException {
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery(explain + sql)) {
      assertTrue(rs.next(), sql);
      return rs.getString(1);
    }
  }

  private QueryAssert shardsetSql(String sql) {
    return fixture.sql(shardset, sql);
  }

  private Hook.Closeable countJavaPlans() {
    final Consumer<Object> count = o -> javaPlans.incrementAndGet();
    return Hook.JAVA_PLAN.addThread(count);
  }

  private static PlanCache cache() throws SQLException {
    return ((ShardSetDriver) DriverManager.getDriver(ShardSetDriver.CONNECT_STRING_PREFIX))
        .planCache();
  }
}
