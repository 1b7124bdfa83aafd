package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Joins of four to eight small tables, each filtered, in the shape of SQLite's sqllogictest
 * {@code select5}, which any SQL engine is expected to answer: generated statements return
 * through ShardSet, on both drivers, the rows the unsharded database returns. The eight tables
 * are placed by every sharding method, two of them co-located; a join of those two in an
 * eight-table statement still runs inside the shards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManyJoinsTest {
  private static final int TABLES = 8;
  private static final int ROWS = 10;
  private static final long SEED = 5;

  /** What the co-located pair's join inside a shard says. */
  private static final String[] T2_JOINS_T1 =
      {"FROM \"T2\" INNER JOIN \"T1\" ON \"T2\".\"A2\" = \"T1\".\"A1\""};

  private ShardFixture fixture;
  private Connection calcite;
  private Connection shardSet;

  @BeforeAll void load() throws SQLException {
    final StringJoiner ddl = new StringJoiner(";\n");
    for (int t = 1; t <= TABLES; t++) {
      ddl.add("CREATE TABLE T" + t + " (A" + t + " INTEGER PRIMARY KEY, B" + t + " INTEGER,"
          + " X" + t + " VARCHAR(40))");
    }
    fixture = ShardFixture.h2(4, ddl.toString());
    final String model = fixture.model("\"tables\": [\n"
        + "  {\"name\": \"T1\", \"method\": \"consistent-hash\", \"shardKey\": [\"A1\"]},\n"
        + "  {\"name\": \"T2\", \"method\": \"consistent-hash\", \"shardKey\": [\"A2\"]},\n"
        + "  {\"name\": \"T3\", \"method\": \"range\", \"shardKey\": [\"A3\"],\n"
        + "   \"ranges\": [{\"shard\": \"s0\", \"to\": 3}, {\"shard\": \"s1\", \"from\": 3,"
        + " \"to\": 6}, {\"shard\": \"s2\", \"from\": 6, \"to\": 9},"
        + " {\"shard\": \"s3\", \"from\": 9}]},\n"
        + "  {\"name\": \"T4\", \"method\": \"duplicated\"},\n"
        + "  {\"name\": \"T5\", \"method\": \"list\", \"shardKey\": [\"B5\"],\n"
        + "   \"lists\": [{\"shard\": \"s0\", \"values\": [1, 2, 3]},"
        + " {\"shard\": \"s1\", \"values\": [4, 5, 6]}, {\"shard\": \"s2\", \"values\": [7, 8]},"
        + " {\"shard\": \"s3\", \"default\": true}]},\n"
        + "  {\"name\": \"T6\", \"method\": \"consistent-hash\", \"shardKey\": [\"B6\"]},\n"
        + "  {\"name\": \"T7\", \"method\": \"duplicated\"},\n"
        + "  {\"name\": \"T8\", \"method\": \"consistent-hash\", \"shardKey\": [\"X8\"]}]");
    final Random random = new Random(SEED);
    try (Connection loading = ShardFixture.connect(model)) {
      for (int t = 1; t <= TABLES; t++) {
        final List<Object[]> rows = new ArrayList<>();
        for (int a = 1; a <= ROWS; a++) {
          rows.add(new Object[] {a, 1 + random.nextInt(ROWS), "table " + t + " row " + a});
        }
        fixture.load(loading, "T" + t, rows);
      }
    }
    calcite = Connector.CALCITE.open(model);
    shardSet = Connector.SHARDSET.open(model);
  }

  @AfterAll void close() throws SQLException {
    calcite.close();
    shardSet.close();
    fixture.close();
  }

  /** Forty statements, each joining four to eight of the tables in a random order. */
  static List<String> statements() {
    final Random random = new Random(SEED);
    return IntStream.range(0, 40)
        .mapToObj(i -> statement(random, 4 + i % 5))
        .toList();
  }

  /**
   * A join of {@code count} tables named in a random order, each but the first joined to an
   * earlier one on one of their two integer columns, most of them filtered, selecting each
   * table's text column.
   */
  private static String statement(Random random, int count) {
    final List<Integer> tables = new ArrayList<>(IntStream.rangeClosed(1, TABLES).boxed().toList());
    Collections.shuffle(tables, random);
    final List<Integer> joined = tables.subList(0, count);
    final StringJoiner select = new StringJoiner(", ");
    final StringJoiner from = new StringJoiner(", ");
    final StringJoiner where = new StringJoiner("\n  AND ");
    for (int i = 0; i < count; i++) {
      final int t = joined.get(i);
      select.add("X" + t);
      from.add("T" + t);
      if (i > 0) {
        final int other = joined.get(random.nextInt(i));
        where.add(column(random, t) + " = " + column(random, other));
      }
      if (random.nextInt(5) > 0) {
        where.add(filter(random, t));
      }
    }
    return "SELECT " + select + "\nFROM " + from + "\nWHERE " + where;
  }

  private static String column(Random random, int table) {
    return (random.nextBoolean() ? "A" : "B") + table;
  }

  private static String filter(Random random, int table) {
    final int value = 1 + random.nextInt(ROWS);
    return switch (random.nextInt(5)) {
    case 0 -> "A" + table + " IN (" + value + ", " + (value % ROWS + 1) + ", "
        + ((value + 3) % ROWS + 1) + ", " + ((value + 5) % ROWS + 1) + ")";
    case 1 -> "B" + table + " <> " + value;
    case 2 -> column(random, table) + " BETWEEN " + (value - 3) + " AND " + (value + 4);
    case 3 -> "(A" + table + " > " + value + " OR B" + table + " < " + value + ")";
    default -> "X" + table + " NOT LIKE '%row " + value + "'";
    };
  }

  @ParameterizedTest
  @MethodSource("statements")
  void sameRowsAsUnsharded(String sql) throws SQLException {
    final List<String> expected = sorted(fixture.oracleRows(sql));
    assertEquals(expected, sorted(ShardFixture.rows(calcite, sql)), "jdbc:calcite:\n" + sql);
    assertEquals(expected, sorted(ShardFixture.rows(shardSet, sql)), "jdbc:shardset:\n" + sql);
  }

  /** The co-located pair is joined inside each shard although other tables join it and the
   * statement names them apart; the shards are asked for the columns used, not all. */
  @Test void colocatedPairStillJoinsInsideTheShards() throws SQLException {
    // Filtered tables make the smaller intermediate results, so an ordering by row counts
    // alone joins them to T1 first and the unfiltered T2 last, away from T1.
    final String sql = "SELECT X1, X2, X3, X5, X6\n"
        + "FROM T2, T1, T3, T5, T6\n"
        + "WHERE A2 = A1 AND B1 = A3 AND A3 IN (2, 3, 7) AND A1 = A5 AND B5 < 6"
        + " AND A5 = A6 AND A6 > 2";
    fixture.sql(calcite, sql)
        .sendsToEachReachedShard(T2_JOINS_T1)
        .sendsNothingContaining("SELECT * FROM \"T3\"")
        .returnsUnsharded();
    fixture.sql(shardSet, sql)
        .sendsToEachReachedShard(T2_JOINS_T1)
        .sendsNothingContaining("SELECT * FROM \"T3\"")
        .returnsUnsharded();
  }

  private static List<String> sorted(List<String> rows) {
    final List<String> copy = new ArrayList<>(rows);
    Collections.sort(copy);
    return copy;
  }
}
