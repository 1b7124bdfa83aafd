package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.QueryAssert;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Shard keys that reach the shards as parameters, decimal literals on integer keys and
 * exclusive bounds prune exactly: every row of the unsharded answer, and no shard that holds
 * none of them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactPruningTest {
  /** The default chunk count: 120 per shard. */
  private static final int CHUNKS = 480;

  private ShardFixture fixture;
  private Connection calcite;
  private Connection shardset;

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.h2(4,
        "CREATE TABLE T (K BIGINT NOT NULL, C INTEGER, PRIMARY KEY (K, C))",
        "CREATE TABLE R (K INTEGER PRIMARY KEY, V INTEGER)");
    final String model = fixture.model("\"tables\": [\n"
        + "  {\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},\n"
        + "  {\"name\": \"R\", \"method\": \"range\", \"shardKey\": [\"K\"],\n"
        + "   \"ranges\": [{\"shard\": \"s0\", \"from\": 0, \"to\": 100},\n"
        + "              {\"shard\": \"s1\", \"from\": 100, \"to\": 200},\n"
        + "              {\"shard\": \"s2\", \"from\": 200, \"to\": 300},\n"
        + "              {\"shard\": \"s3\", \"from\": 300, \"to\": 400}]}]");
    calcite = ShardFixture.connect(model);
    shardset = Connector.SHARDSET.open(model);
    final List<Object[]> rows = new ArrayList<>(List.of(new Object[] {344L, 1},
        new Object[] {727L, 2}, new Object[] {727L, 3},
        new Object[] {1_000_000_000_000_000_000L, 4}, new Object[] {42L, 5},
        new Object[] {43L, 6}));
    for (long k = 1; k <= 20; k++) {
      rows.add(new Object[] {k, 100});
    }
    fixture.load(calcite, "T", rows);
    final List<Object[]> ranged = new ArrayList<>();
    for (int k = 0; k < 400; k += 3) {
      ranged.add(new Object[] {k, k % 7});
    }
    fixture.load(calcite, "R", ranged);
  }

  @AfterAll void tearDown() throws SQLException {
    shardset.close();
    calcite.close();
    fixture.close();
  }

  /** A key parameter with a non-key condition beside it is not narrowed per shard. */
  @Test void keyParameterBesideAnotherConditionKeepsItsValue() {
    assertNotEquals(shardOfLong(344, CHUNKS, 4), shardOfLong(727, CHUNKS, 4));
    final String sql = "SELECT C FROM T WHERE K = 344 OR (K = 727 AND C = 3)";
    // literals on jdbc:calcite:, then through the plan cache
    sql(sql).returnsUnordered("1", "3").returnsUnsharded();
    sql(sql).through(shardset).returnsUnordered("1", "3").returnsUnsharded();
    sql("SELECT C FROM T WHERE K = ? OR (K = ? AND C = 3)")
        .withBinding(p -> {
          p.setLong(1, 344);
          p.setLong(2, 727);
        }, "setLong 344, 727")
        .returnsUnordered("1", "3");
  }

  /** A NULL in a key list is unknown, not false: under NOT, no row passes. */
  @Test void nullInAParameterListStaysUnknown() {
    sql("SELECT C FROM T WHERE NOT (K = ? OR K = ?)")
        .withParameters(344L, new QueryAssert.Null(Types.BIGINT))
        .returns();
  }

  /** On an integer key, {@code k > 99} is {@code k >= 100}: the range [0, 100) holds no
   * match. */
  @Test void exclusiveBoundsOnIntegerKeysAreInclusiveOnes() {
    assertExact(Set.of("s1", "s2", "s3"), "SELECT K FROM R WHERE K > 99");
    assertExact(Set.of("s0"), "SELECT K FROM R WHERE K < 100");
    assertExact(Set.of("s1"), "SELECT K FROM R WHERE K > 99 AND K < 200");
    assertExact(Set.of("s1"), "SELECT K FROM R WHERE K BETWEEN 100 AND 199");
    assertExact(Set.of("s0", "s2"), "SELECT K FROM R WHERE K < 100 OR K > 199 AND K < 300");
    assertExact(Set.of("s1"), "SELECT K FROM R WHERE K > 99.5 AND K < 199.5");
    sql("SELECT K FROM R WHERE K > ? AND K < ?")
        .withBinding(p -> {
          p.setInt(1, 99);
          p.setInt(2, 200);
        }, "setInt 99, 200")
        .reaches("s1")
        .returnsUnsharded("SELECT K FROM R WHERE K > 99 AND K < 200");
  }

  /** A decimal literal compared with a BIGINT key holding values of 10^18: no overflow, and a
   * fraction that no integer equals reaches no shard. */
  @Test void decimalLiteralsOnABigintKey() {
    assertExact(hash(42), "SELECT C FROM T WHERE K = 42.0");
    assertExact(Set.of(), "SELECT C FROM T WHERE K = 42.5");
    assertExact(hash(42, 727), "SELECT C FROM T WHERE K IN (42.0, 2.5, 727)");
    assertExact(hash(42), "SELECT C FROM T WHERE K = 42.0 AND C = 5");
    sql("SELECT C FROM T WHERE K > 42.5").returnsUnsharded();
    sql("SELECT C FROM T WHERE K <> 42.0").returnsUnsharded();
  }

  private static Set<String> hash(long... keys) {
    final Set<String> shards = new TreeSet<>();
    for (long key : keys) {
      shards.add("s" + shardOfLong(key, CHUNKS, 4));
    }
    return shards;
  }

  /** The statement returns the unsharded answer, on both connections, reaching exactly the
   * given shards. */
  private void assertExact(Set<String> shards, String sql) {
    sql(sql).reaches(shards).returnsUnsharded();
    sql(sql).through(shardset).reaches(shards).returnsUnsharded();
  }

  private QueryAssert sql(String sql) {
    return fixture.sql(calcite, sql);
  }
}
