package io.shardset.calcite;

import io.shardset.routing.ShardRouter;
import io.shardset.testing.Drivers;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hints SHARDS and SCATTER: which shards a hinted statement reaches, counted at the
 * shards, and the rows it answers, against the rows the named shards hold; on
 * {@code jdbc:calcite:} and {@code jdbc:shardset:} alike.
 */
class ShardHintTest {
  private static final String[] DDL = {
      "CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR(20))",
      "CREATE TABLE U (K BIGINT PRIMARY KEY, W INTEGER)",
      "CREATE TABLE D (ID INTEGER PRIMARY KEY, NAME VARCHAR(10))"};
  private static final String TABLES = "\"tables\": ["
      + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},"
      + "{\"name\": \"U\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},"
      + "{\"name\": \"D\", \"method\": \"duplicated\"}]";
  private static final int ROWS = 200;
  private static final String BLOCKS_ON_CALCITE = "on jdbc:calcite:, a SHARDS or SCATTER hint"
      + " after SELECT is followed only in a statement of one query block: write it after each"
      + " table's name (FROM T /*+ SHARDS(s1) */), or connect with jdbc:shardset:";

  private ShardFixture fixture;
  private ShardRouter router;

  @BeforeEach void load() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    try (Connection connection = ShardFixture.connect(fixture.model(TABLES))) {
      final List<Object[]> t = new ArrayList<>();
      final List<Object[]> u = new ArrayList<>();
      for (long k = 1; k <= ROWS; k++) {
        t.add(new Object[] {k, "v" + k});
        u.add(new Object[] {k, (int) (k % 7)});
      }
      fixture.load(connection, "T", t);
      fixture.load(connection, "U", u);
      fixture.load(connection, "D", List.of(new Object[] {1, "one"}, new Object[] {2, "two"}));
      router = ShardFixture.schema(connection).table("T").router();
    }
  }

  @AfterEach void close() throws SQLException {
    fixture.close();
  }

  private Connection connect(Drivers way) throws SQLException {
    return way.connector().open(fixture.model(TABLES));
  }

  /** The keys of T's rows on the named shards, in order. */
  private List<String> keysOn(String... shards) {
    final Set<String> names = Set.of(shards);
    final List<String> keys = new ArrayList<>();
    for (long k = 1; k <= ROWS; k++) {
      if (names.contains("s" + router.shardOf(List.of(k)).orElseThrow())) {
        keys.add(Long.toString(k));
      }
    }
    return keys;
  }

  private List<String> column(Connection connection, String sql) throws SQLException {
    fixture.shards().resetCounters();
    final List<String> values = new ArrayList<>();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }

  private static int update(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      return s.executeUpdate(sql);
    }
  }

  /** The reason alone: these failures' state is checked where it matters. */
  private static String reason(Drivers way, SQLException e) {
    return way.reason(e, "42000").substring("42000 ".length());
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void queryHintReadsOnlyTheNamedShards(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      assertEquals(keysOn("s1"),
          column(connection, "SELECT /*+ SHARDS(s1) */ K FROM T ORDER BY K"));
      assertEquals(Set.of("s1"), fixture.shardsReached());
      assertEquals(List.of(Integer.toString(keysOn("s0", "s2").size())),
          column(connection, "SELECT /*+ SHARDS(\"s0\", \"s2\") */ COUNT(*) FROM T"));
      assertEquals(Set.of("s0", "s2"), new TreeSet<>(fixture.shardsReached()));
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void tableHintRestrictsItsTableOnly(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      // U is not hinted: every shard's U rows join with s3's T rows.
      final String sql = "SELECT t.K FROM T /*+ SHARDS(s3) */ t JOIN U u ON t.K = u.K + 1"
          + " ORDER BY t.K";
      final List<String> expected = new ArrayList<>(keysOn("s3"));
      expected.remove("1");
      assertEquals(expected, column(connection, sql));
      assertEquals(Set.of("s0", "s1", "s2", "s3"), fixture.shardsReached());
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void colocatedJoinUnderAQueryHintRunsInTheNamedShard(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      final String sql = "SELECT /*+ SHARDS(s2) */ COUNT(*) FROM T JOIN U ON T.K = U.K"
          + " JOIN D ON D.ID = U.W";
      final String plan = PlanTest.explain(connection, sql);
      assertTrue(plan.contains("EnumerableShardScan(table=[[S, T], [S, U], [S, D]],"
          + " hints=[SHARDS(s2)], shards=[1 of 4: s2]"), plan);
      final long expected = keysOn("s2").stream().mapToLong(Long::parseLong)
          .filter(k -> k % 7 == 1 || k % 7 == 2).count();
      assertEquals(List.of(Long.toString(expected)), column(connection, sql));
      assertEquals(Set.of("s2"), fixture.shardsReached());
      assertEquals(1, fixture.shards().statementsExecuted());
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void parameterRoutesWithinTheNamedShards(Drivers way) throws SQLException {
    final String inside = keysOn("s1").get(0);
    final String outside = keysOn("s2").get(0);
    try (Connection connection = connect(way);
         PreparedStatement p = connection.prepareStatement(
             "SELECT /*+ SHARDS(s1) */ V FROM T WHERE K = ?")) {
      p.setLong(1, Long.parseLong(inside));
      assertEquals(Set.of("s1"), fixture.reached(p));
      p.setLong(1, Long.parseLong(outside));
      assertEquals(Set.of(), fixture.reached(p));
      try (ResultSet rs = p.executeQuery()) {
        assertTrue(!rs.next(), "a key of s2 has no row on s1");
      }
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void literalOutsideTheNamedShardsReachesNothing(Drivers way) throws SQLException {
    final String outside = keysOn("s2").get(0);
    try (Connection connection = connect(way)) {
      assertEquals(List.of(),
          column(connection, "SELECT /*+ SHARDS(s1) */ V FROM T WHERE K = " + outside));
      assertEquals(Set.of(), fixture.shardsReached());
      assertEquals(List.of("v" + outside),
          column(connection, "SELECT /*+ SHARDS(s2) */ V FROM T WHERE K = " + outside));
      assertEquals(Set.of("s2"), fixture.shardsReached());
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void duplicatedTableReadsTheNamedShardsCopy(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      assertEquals(List.of("one", "two"),
          column(connection, "SELECT NAME FROM D /*+ SHARDS(s3) */ ORDER BY ID"));
      assertEquals(Set.of("s3"), fixture.shardsReached());
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void deleteWithAHintChangesOnlyTheNamedShard(Drivers way) throws SQLException {
    try (Connection connection = connect(way); Statement s = connection.createStatement()) {
      fixture.shards().resetCounters();
      assertEquals(keysOn("s0").size(), s.executeUpdate("DELETE FROM T /*+ SHARDS(s0) */"));
      assertEquals(Set.of("s0"), fixture.shardsReached());
      assertEquals(keysOn("s1", "s2", "s3"), column(connection, "SELECT K FROM T ORDER BY K"));
    }
  }

  /** On jdbc:shardset:, a hint after SELECT reaches the tables of subqueries and derived
   * tables; Calcite's own converter would lose it there, so jdbc:calcite: refuses it. */
  @ParameterizedTest @EnumSource(Drivers.class)
  void blockHintReachesSubqueriesAndDerivedTables(Drivers way) throws SQLException {
    final List<String> onS1 = keysOn("s1");
    final long chained = onS1.stream().mapToLong(Long::parseLong)
        .filter(k -> onS1.contains(Long.toString(k - 1))).count();
    final Map<String, String> queries = new LinkedHashMap<>();
    queries.put("SELECT COUNT(*) FROM (SELECT /*+ SHARDS(s1) */ K FROM T) x",
        Integer.toString(onS1.size()));
    queries.put("SELECT COUNT(*) FROM T WHERE K IN (SELECT /*+ SHARDS(s1) */ K FROM U)",
        Integer.toString(onS1.size()));
    queries.put("SELECT COUNT(*) FROM T WHERE EXISTS"
        + " (SELECT /*+ SHARDS(s1) */ 1 FROM U WHERE U.K = T.K)", Integer.toString(onS1.size()));
    queries.put("SELECT /*+ SHARDS(s1) */ COUNT(*) FROM T WHERE K IN (SELECT K + 1 FROM U)",
        Long.toString(chained));
    try (Connection connection = connect(way)) {
      for (Map.Entry<String, String> query : queries.entrySet()) {
        if (way == Drivers.SHARDSET) {
          assertEquals(List.of(query.getValue()), column(connection, query.getKey()),
              query.getKey());
        } else {
          assertEquals(BLOCKS_ON_CALCITE, reason(way, assertThrows(SQLException.class,
              () -> column(connection, query.getKey()))), query.getKey());
        }
      }
      fixture.shards().resetCounters();
      final String delete = "DELETE FROM T WHERE K IN (SELECT /*+ SHARDS(s1) */ K FROM U)";
      if (way == Drivers.SHARDSET) {
        assertEquals(onS1.size(), update(connection, delete));
        assertEquals(keysOn("s0", "s2", "s3"), column(connection, "SELECT K FROM T ORDER BY K"));
      } else {
        assertEquals(BLOCKS_ON_CALCITE, reason(way, assertThrows(SQLException.class,
            () -> update(connection, delete))));
        assertEquals(0, fixture.shards().statementsExecuted());
      }
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void mergeTargetCannotBeRestricted(Drivers way) throws SQLException {
    final String outside = keysOn("s2").get(0);
    try (Connection connection = connect(way)) {
      fixture.shards().resetCounters();
      final String merge = "MERGE INTO T /*+ SHARDS(s1) */ t USING (VALUES (CAST(" + outside
          + " AS BIGINT), 'merged')) s (K, V) ON t.K = s.K WHEN MATCHED THEN UPDATE SET"
          + " V = s.V WHEN NOT MATCHED THEN INSERT (K, V) VALUES (s.K, s.V)";
      assertEquals("hint SHARDS cannot restrict the MERGE into S.T: a MERGE inserts the rows it"
          + " does not find where their keys route; hint the query of its source instead",
          reason(way, assertThrows(SQLException.class, () -> update(connection, merge))));
      assertEquals(0, fixture.shards().statementsExecuted());
      assertEquals(List.of("v" + outside),
          column(connection, "SELECT V FROM T WHERE K = " + outside));
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void writeOfADuplicatedTableCannotBeRestricted(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      fixture.shards().resetCounters();
      for (String sql : List.of("DELETE FROM D /*+ SHARDS(s1) */ WHERE ID = 1",
          "UPDATE D /*+ SHARDS(s1) */ SET NAME = 'uno' WHERE ID = 1")) {
        final String operation = sql.substring(0, 6);
        assertEquals("hint SHARDS cannot restrict the " + operation + " of duplicated table S.D:"
            + " every shard holds a copy, and the copies change together",
            reason(way, assertThrows(SQLException.class, () -> update(connection, sql))));
      }
      assertEquals(0, fixture.shards().statementsExecuted());
      assertEquals(List.of("one", "two"), column(connection, "SELECT NAME FROM D ORDER BY ID"));
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void hintOnAnInsertTargetIsRefusedOnShardSet(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      final String sql = "INSERT INTO T /*+ SHARDS(s1) */ VALUES (1000, 'x')";
      if (way == Drivers.SHARDSET) {
        final SQLException e = assertThrows(SQLException.class, () -> update(connection, sql));
        assertEquals("INSERT INTO T: a hint on the target of an INSERT"
            + " is not followed, since each row goes to the shard its key routes to; hint the"
            + " query that gives the rows instead", e.getMessage());
        assertEquals("42000", e.getSQLState());
      } else {
        // Calcite's driver drops the hint; the row goes where its key routes.
        assertEquals(1, update(connection, sql));
      }
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void unknownShardFailsNamingIt(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      fixture.shards().resetCounters();
      final SQLException e = assertThrows(SQLException.class,
          () -> column(connection, "SELECT /*+ SHARDS(s1, s9, nowhere) */ K FROM T"));
      assertEquals("hint SHARDS names shards the model does not have: S9, NOWHERE; its shards"
          + " are s0, s1, s2, s3", reason(way, e));
      if (way == Drivers.SHARDSET) {
        assertEquals("42000", e.getSQLState());
      }
      assertEquals(0, fixture.shards().statementsExecuted());
    }
  }

  @ParameterizedTest @EnumSource(Drivers.class)
  void misspeltOrMalformedHintsFail(Drivers way) throws SQLException {
    try (Connection connection = connect(way)) {
      assertEquals("unknown hint SHARD; ShardSet knows SHARDS(shard, ...) and SCATTER",
          reason(way, assertThrows(SQLException.class,
              () -> update(connection, "DELETE FROM T /*+ SHARD(s1) */"))));
      assertEquals("hint SHARDS takes one or more shard names, as in SHARDS(s1, s2)",
          reason(way, assertThrows(SQLException.class,
              () -> column(connection, "SELECT /*+ SHARDS */ K FROM T"))));
      assertEquals("hint SCATTER takes no options", reason(way, assertThrows(SQLException.class,
          () -> column(connection, "SELECT /*+ SCATTER(s1) */ K FROM T"))));
      assertEquals(ROWS, column(connection, "SELECT K FROM T").size());
    }
  }
}
