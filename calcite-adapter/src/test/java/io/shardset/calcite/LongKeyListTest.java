package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.LongTest;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * IN lists of ten thousand literals through {@code jdbc:calcite:} and {@code jdbc:shardset:}:
 * they plan, return the unsharded answer, and on the shard key each shard is sent only its own
 * keys.
 */
@LongTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LongKeyListTest {
  private static final int KEYS = 10_000;
  /** The default chunk count: 120 per shard. */
  private static final int CHUNKS = 480;
  private static final Pattern NUMBER = Pattern.compile("\\b\\d+\\b");
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private ShardFixture fixture;
  private Connection calcite;
  private Connection shardset;

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.h2(4, "CREATE TABLE T (K BIGINT PRIMARY KEY, C INTEGER)");
    final String model = fixture.model("\"tables\": [\n"
        + "  {\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]");
    calcite = ShardFixture.connect(model);
    shardset = Connector.SHARDSET.open(model);
    final List<Object[]> rows = new ArrayList<>();
    for (long k = 0; k < 3 * KEYS; k += 3) {
      rows.add(new Object[] {k, (int) (k % 11)});
    }
    fixture.load(calcite, "T", rows);
    // Warms both connections up, so that the printed times are the list's, not a cold start's
    final String warmUp = "SELECT K, C FROM T WHERE K IN " + literalList(keys().subList(0, 30));
    calcite.prepareStatement(warmUp).close();
    shardset.prepareStatement(warmUp).close();
  }

  @AfterAll void tearDown() throws SQLException {
    calcite.close();
    shardset.close();
    fixture.close();
  }

  /** Every second key of the table and as many that are not in it. */
  private static List<Long> keys() {
    final List<Long> keys = new ArrayList<>();
    for (long k = 0; keys.size() < KEYS; k += 3) {
      keys.add(k * 2);
      keys.add(k * 2 + 1);
    }
    return keys;
  }

  private static String literalList(List<Long> keys) {
    final StringJoiner j = new StringJoiner(", ", "(", ")");
    keys.forEach(k -> j.add(Long.toString(k)));
    return j.toString();
  }

  @Test void keyListThroughCalcite() {
    assertTimeoutPreemptively(DEADLINE, () -> {
      keyList(calcite, "jdbc:calcite:");
      final String sql = "SELECT K, C FROM T WHERE K IN " + literalList(keys());
      for (int i = 0; i < 3; i++) { // jdbc:calcite: plans every time; later runs are warm
        final long start = System.nanoTime();
        calcite.prepareStatement(sql).close();
        print("jdbc:calcite: prepare again", start);
      }
    });
  }

  @Test void keyListThroughShardSet() {
    assertTimeoutPreemptively(DEADLINE, () -> keyList(shardset, "jdbc:shardset:"));
  }

  /** The key list with a condition on another column: still each shard's own keys only. */
  @Test void keyListAndOtherCondition() {
    assertTimeoutPreemptively(DEADLINE, () -> {
      final String sql = "SELECT K, C FROM T WHERE K IN " + literalList(keys()) + " AND C > 4";
      assertAnswer(shardset, sql, "jdbc:shardset: key list and C > 4");
      assertOwnKeysOnly();
    });
  }

  /** A long list on a column that is not the shard key: the right answer from every shard. */
  @Test void nonKeyList() {
    assertTimeoutPreemptively(DEADLINE, () -> {
      final List<Long> values = new ArrayList<>();
      for (long v = 0; v < KEYS; v++) {
        values.add(v * 7 % 5);
      }
      values.add(100_000L);
      final String sql = "SELECT K, C FROM T WHERE C IN " + literalList(values);
      assertAnswer(calcite, sql, "jdbc:calcite: non-key list");
      assertAnswer(shardset, sql, "jdbc:shardset: non-key list");
    });
  }

  /** NOT IN and its synonym {@code <> ALL}, with NULL semantics: a list with a NULL keeps
   * no row. */
  @Test void notInKeyList() {
    assertTimeoutPreemptively(DEADLINE, () -> {
      final String list = literalList(keys());
      assertAnswer(shardset, "SELECT K, C FROM T WHERE K NOT IN " + list,
          "jdbc:shardset: NOT IN key list");
      assertAnswer(shardset, "SELECT K, C FROM T WHERE K <> ALL " + list,
          "SELECT K, C FROM T WHERE K NOT IN " + list, "jdbc:shardset: <> ALL key list");
      final String withNull = "SELECT COUNT(*) FROM T WHERE K NOT IN "
          + list.substring(0, list.length() - 1) + ", NULL)";
      try (PreparedStatement p = shardset.prepareStatement(withNull);
           ResultSet rs = p.executeQuery()) {
        assertEquals(List.of("0"), ShardFixture.rows(rs), "NOT IN a list with NULL");
      }
    });
  }

  /** {@code = ANY (list)}, IN's synonym: the same routing. */
  @Test void anyKeyList() {
    assertTimeoutPreemptively(DEADLINE, () -> {
      assertAnswer(shardset, "SELECT K, C FROM T WHERE K = ANY " + literalList(keys()),
          "SELECT K, C FROM T WHERE K IN " + literalList(keys()), "jdbc:shardset: = ANY key list");
      assertOwnKeysOnly();
    });
  }

  /** A long list in the select list is a three-valued expression, as a short one is. */
  @Test void keyListAsValue() {
    assertTimeoutPreemptively(DEADLINE, () -> assertAnswer(shardset,
        "SELECT K, K IN " + literalList(keys()) + ", C IN "
            + literalList(keys().subList(0, 40)) + " FROM T", "jdbc:shardset: IN as a value"));
  }

  /** A list of ten thousand {@code ?}: prepared as a filter, not a union of ten thousand
   * one-row projections; each shard is sent only its own keys as values. */
  @Test void parameterListThroughShardSet() {
    assertTimeoutPreemptively(DEADLINE, () -> parameterList(shardset, "jdbc:shardset:",
        keys(), ""));
  }

  /** Through {@code jdbc:calcite:} the list is rewritten in the cost-based planner: slower to
   * plan, so a shorter list, but the same answer and the same routing. */
  @Test void parameterListThroughCalcite() {
    assertTimeoutPreemptively(DEADLINE, () -> parameterList(calcite, "jdbc:calcite:",
        keys().subList(0, 1_000), ""));
  }

  /** Parameters beside another condition, with repeated values and a NULL. */
  @Test void parameterListWithRepeatsNullAndOtherCondition() {
    assertTimeoutPreemptively(DEADLINE, () -> {
      final List<Long> values = new ArrayList<>(keys().subList(0, 3_000));
      values.addAll(keys().subList(0, 100));
      values.add(null);
      parameterList(shardset, "jdbc:shardset:", values, " AND C > 4");
    });
  }

  /** A list of literals and parameters mixed. */
  @Test void mixedListThroughShardSet() {
    assertTimeoutPreemptively(DEADLINE, () -> {
      final List<Long> keys = keys().subList(0, 2_000);
      final StringJoiner list = new StringJoiner(", ", "(", ")");
      for (int i = 0; i < keys.size(); i++) {
        list.add(i % 2 == 0 ? "?" : Long.toString(keys.get(i)));
      }
      final String sql = "SELECT K, C FROM T WHERE K IN " + list;
      final List<String> expected = ShardFixture.sorted(fixture.oracleRows(
          "SELECT K, C FROM T WHERE K IN " + literalList(keys)));
      try (PreparedStatement p = shardset.prepareStatement(sql)) {
        for (int i = 0, n = 1; i < keys.size(); i += 2) {
          p.setLong(n++, keys.get(i));
        }
        try (ResultSet rs = p.executeQuery()) {
          assertEquals(expected, ShardFixture.sorted(ShardFixture.rows(rs)), "mixed list");
        }
      }
    });
  }

  private void parameterList(Connection connection, String driver, List<Long> values,
      String otherCondition) throws SQLException {
    final StringJoiner marks = new StringJoiner(", ", "(", ")");
    values.forEach(v -> marks.add("?"));
    final String sql = "SELECT K, C FROM T WHERE K IN " + marks + otherCondition;
    final List<Long> present = values.stream().filter(v -> v != null).toList();
    final List<String> expected = ShardFixture.sorted(fixture.oracleRows(
        "SELECT K, C FROM T WHERE K IN " + literalList(present) + otherCondition));
    assertFalse(expected.isEmpty(), driver);
    final String what = driver + " IN list of " + values.size() + " parameters";
    final long start = System.nanoTime();
    try (PreparedStatement p = connection.prepareStatement(sql)) {
      print(what + ", prepare", start);
      for (int i = 0; i < values.size(); i++) {
        p.setObject(i + 1, values.get(i));
      }
      fixture.shards().resetCounters();
      final long execute = System.nanoTime();
      try (ResultSet rs = p.executeQuery()) {
        assertEquals(expected, ShardFixture.sorted(ShardFixture.rows(rs)), what);
      }
      print(what + ", execute", execute);
    }
    for (String shard : fixture.shards().names()) {
      final Set<Long> sent = new TreeSet<>();
      fixture.shards().executions(shard).forEach(e -> e.parameters().forEach(v -> {
        if (v != null) {
          sent.add(((Number) v).longValue());
        }
      }));
      final Set<Long> own = new TreeSet<>(own(shard));
      own.retainAll(present);
      assertEquals(own, sent, what + ": the keys sent to " + shard);
    }
  }

  private void keyList(Connection connection, String driver) throws SQLException {
    final String sql = "SELECT K, C FROM T WHERE K IN " + literalList(keys());
    assertAnswer(connection, sql, driver + " IN list of " + KEYS + " literals");
    assertOwnKeysOnly();
  }

  private void assertAnswer(Connection connection, String sql, String what)
      throws SQLException {
    assertAnswer(connection, sql, sql, what);
  }

  /** As {@link #assertAnswer(Connection, String, String)}, the unsharded database answering
   * {@code oracleSql}, for syntax it does not take. */
  private void assertAnswer(Connection connection, String sql, String oracleSql, String what)
      throws SQLException {
    final List<String> expected = ShardFixture.sorted(fixture.oracleRows(oracleSql));
    assertFalse(expected.isEmpty(), what);
    fixture.shards().resetCounters();
    final long start = System.nanoTime();
    try (PreparedStatement p = connection.prepareStatement(sql)) {
      print(what + ", prepare", start);
      final long execute = System.nanoTime();
      try (ResultSet rs = p.executeQuery()) {
        assertEquals(expected, ShardFixture.sorted(ShardFixture.rows(rs)), what);
      }
      print(what + ", execute", execute);
    }
  }

  /** Each shard received, in the SQL of the last query, exactly its own keys of the list. */
  private void assertOwnKeysOnly() {
    for (String shard : fixture.shards().names()) {
      final Set<Long> sent = new TreeSet<>();
      fixture.shards().executions(shard).forEach(e -> {
        final int in = e.sql().indexOf(" IN ");
        final String list = in < 0 ? "" : e.sql().substring(in, e.sql().indexOf(')', in));
        final Matcher m = NUMBER.matcher(list);
        while (m.find()) {
          sent.add(Long.parseLong(m.group()));
        }
      });
      assertEquals(own(shard), sent, shard);
    }
  }

  private static Set<Long> own(String shard) {
    final Set<Long> own = new TreeSet<>();
    for (long key : keys()) {
      if (shard.equals("s" + shardOfLong(key, CHUNKS, 4))) {
        own.add(key);
      }
    }
    return own;
  }

  private static void print(String what, long start) {
    System.out.println("LongKeyListTest: " + what + ": "
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
  }
}
