package io.shardset.tpch;

import io.shardset.testing.LongTest;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 22 TPC-H queries return through ShardSet, over TPC-H data spread over four shards, the
 * rows they return on one unsharded H2 database holding the same data.
 */
@LongTest
class TpchQueryTest {
  private static ShardFixture fixture;
  private static Connection connection;

  @BeforeAll static void load() throws SQLException {
    fixture = ShardFixture.h2(TpchLayout.SHARDS, TpchDataSet.ddl());
    connection = ShardFixture.connect(fixture.model(TpchLayout.TABLES));
    TpchDataSet.load(fixture, connection);
  }

  @AfterAll static void close() throws SQLException {
    connection.close();
    fixture.close();
  }

  @Test void everyTableHoldsTheRowsOfScaleFactorOneHundredth() throws SQLException {
    final List<String> counts = new ArrayList<>();
    for (String table : List.of("LINEITEM", "ORDERS", "PARTSUPP", "PART", "CUSTOMER",
        "SUPPLIER", "NATION", "REGION")) {
      counts.add(table + " " + rows(connection, "SELECT COUNT(*) FROM " + table).rows());
    }
    assertEquals(List.of("LINEITEM [[60175]]", "ORDERS [[15000]]", "PARTSUPP [[8000]]",
        "PART [[2000]]", "CUSTOMER [[1500]]", "SUPPLIER [[100]]", "NATION [[25]]",
        "REGION [[5]]"), counts);
  }

  static List<TpchQuery> queries() {
    return TpchQueries.ALL;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("queries")
  void sameRowsAsUnsharded(TpchQuery query) throws SQLException {
    TpchComparison.assertSameRows(query, fixture.oracle(), connection);
  }

  /**
   * The queries that join a small filtered side with a large table sharded on another key
   * read the small side first and send its keys into the large side's shard SQL (see
   * {@code BindJoins}); the rows above are the same as without.
   */
  @Test void queriesJoiningAFilteredSmallSideBindTheirJoins() throws SQLException {
    final List<String> bound = new ArrayList<>();
    for (TpchQuery query : TpchQueries.ALL) {
      if (plan(query).contains("EnumerableBindKeys")) {
        bound.add(query.toString());
      }
    }
    assertEquals(List.of("Q2", "Q3", "Q5", "Q7", "Q8", "Q9", "Q11", "Q17", "Q20", "Q21", "Q22"),
        bound);
  }

  /**
   * Q21's EXISTS and NOT EXISTS over other lines of the same order run inside the shards, as
   * LINEITEM is sharded by its order key (see {@code ExistsAsJoins}); Q4's EXISTS, on the
   * order key alone, joins the distinct keys of the matching lines there too.
   */
  @Test void correlatedExistsOnTheShardKeyRunsInsideTheShards() throws SQLException {
    final List<String> pushed = new ArrayList<>();
    for (TpchQuery query : TpchQueries.ALL) {
      final String plan = plan(query);
      if (plan.contains("WHERE EXISTS (SELECT") && plan.contains("WHERE NOT EXISTS (SELECT")) {
        pushed.add(query.toString());
      }
    }
    assertEquals(List.of("Q21"), pushed);
    assertTrue(plan(TpchQueries.ALL.get(3)).contains("INNER JOIN (SELECT \"L_ORDERKEY\" FROM"
        + " \"LINEITEM\" WHERE \"L_COMMITDATE\" < \"L_RECEIPTDATE\" GROUP BY \"L_ORDERKEY\")"),
        "Q4's EXISTS in the shards");
  }

  private static String plan(TpchQuery query) throws SQLException {
    final StringBuilder plan = new StringBuilder();
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR "
             + query.sql(TpchQuery.Engine.CALCITE))) {
      while (rs.next()) {
        plan.append(rs.getString(1));
      }
    }
    return plan.toString();
  }

  private static ResultRows rows(Connection on, String sql) throws SQLException {
    try (Statement s = on.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return ResultRows.read(rs);
    }
  }
}
