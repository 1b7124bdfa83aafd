package io.shardset.calcite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Joins whose matching rows always share a shard run inside the shards; every join gives the
 * unsharded answer.
 */
class JoinPushdownTest extends SalesDataTestBase {
  @ParameterizedTest
  @ValueSource(strings = {
      // co-located: a table family joined on its shard key
      "SELECT c.NAME, o.ORDER_ID, o.AMOUNT FROM CUSTOMERS c JOIN ORDERS o"
          + " ON c.CUSTOMER_ID = o.CUSTOMER_ID",
      "SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o"
          + " ON c.CUSTOMER_ID = o.CUSTOMER_ID WHERE o.CUSTOMER_ID IN (5, 77)",
      "SELECT c.CUSTOMER_ID, o.ORDER_ID FROM CUSTOMERS c LEFT JOIN ORDERS o"
          + " ON c.CUSTOMER_ID = o.CUSTOMER_ID",
      "SELECT c.REGION, COUNT(*), SUM(o.AMOUNT) FROM CUSTOMERS c JOIN ORDERS o"
          + " ON c.CUSTOMER_ID = o.CUSTOMER_ID GROUP BY c.REGION",
      "SELECT c.CUSTOMER_ID, COUNT(o.ORDER_ID) FROM CUSTOMERS c LEFT JOIN ORDERS o"
          + " ON c.CUSTOMER_ID = o.CUSTOMER_ID GROUP BY c.CUSTOMER_ID",
      "SELECT COUNT(*) FROM CUSTOMERS c JOIN ORDERS o ON c.CUSTOMER_ID = o.CUSTOMER_ID"
          + " WHERE c.CUSTOMER_ID = 42",
      // sharded with duplicated, and duplicated with duplicated
      "SELECT a.ACCOUNT_ID, k.NAME FROM ACCOUNTS a JOIN COUNTRIES k ON a.REGION = k.REGION",
      "SELECT c.CUSTOMER_ID, k.CODE FROM CUSTOMERS c JOIN COUNTRIES k ON c.REGION = k.REGION"
          + " WHERE c.CUSTOMER_ID = 9",
      "SELECT a.ACCOUNT_ID, k.CODE FROM ACCOUNTS a LEFT JOIN COUNTRIES k"
          + " ON a.REGION = k.REGION",
      "SELECT x.CODE, y.CODE FROM COUNTRIES x JOIN COUNTRIES y ON x.REGION = y.REGION",
      // not shard-local: joined above the scans
      "SELECT k.CODE, a.ACCOUNT_ID FROM COUNTRIES k LEFT JOIN ACCOUNTS a"
          + " ON a.REGION = k.REGION",
      "SELECT o.ORDER_ID, e.EVENT_ID FROM ORDERS o JOIN EVENTS e ON o.ORDER_ID = e.EVENT_ID",
      "SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o ON c.CUSTOMER_ID = o.ORDER_ID",
      "SELECT v.SITE, c.NAME FROM VISITS v JOIN CUSTOMERS c ON v.CUSTOMER_ID = c.CUSTOMER_ID"
          + " WHERE v.HITS > 900"})
  void joinsEqualUnsharded(String sql) throws SQLException {
    final List<String> expected = sorted(fixture.oracleRows(sql));
    assertFalse(expected.isEmpty(), sql);
    assertEquals(expected, sorted(rows(sql)), sql);
  }

  @Test void colocatedJoinSendsOneJoinedQueryPerShardAndNoBaseRows() throws SQLException {
    fixture.shards().resetCounters();
    final List<String> joined = rows("SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c"
        + " JOIN ORDERS o ON c.CUSTOMER_ID = o.CUSTOMER_ID");
    for (String shard : fixture.shards().names()) {
      assertEquals(1, fixture.shards().statementsExecuted(shard), shard);
      assertTrue(fixture.shards().executions(shard).get(0).sql().contains("JOIN"), shard);
    }
    assertEquals(joined.size(), fixture.shards().rowsRead());
  }

  @Test void colocatedJoinIsPrunedByEitherSide() throws SQLException {
    fixture.shards().resetCounters();
    rows("SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o"
        + " ON c.CUSTOMER_ID = o.CUSTOMER_ID WHERE o.CUSTOMER_ID = 77");
    assertEquals(Set.of("s" + shardOfLong(77, 480, 4)), fixture.shardsReached());
    assertEquals(1, fixture.shards().statementsExecuted());
  }

  @Test void explainShowsTheJoinInsideTheShards() throws SQLException {
    final String shard = "s" + shardOfLong(42, 480, 4);
    assertEquals("EnumerableShardScan(table=[[S, ORDERS], [S, CUSTOMERS]],"
            + " shards=[1 of 4: " + shard + "], "
            + explainSql("SELECT \"t0\".\"NAME\", \"t\".\"ORDER_ID\" FROM (SELECT *"
                + " FROM \"ORDERS\" WHERE \"CUSTOMER_ID\" = 42) AS \"t\" INNER JOIN (SELECT *"
                + " FROM \"CUSTOMERS\" WHERE \"CUSTOMER_ID\" = 42) AS \"t0\""
                + " ON \"t\".\"CUSTOMER_ID\" = \"t0\".\"CUSTOMER_ID\"",
            "SELECT \"t0\".\"name\" AS \"NAME\", \"t\".\"order_id\" AS \"ORDER_ID\" FROM"
                + " (SELECT * FROM \"orders\" WHERE \"customer_id\" = 42) AS \"t\" INNER JOIN"
                + " (SELECT * FROM \"customers\" WHERE \"customer_id\" = 42) AS \"t0\""
                + " ON \"t\".\"customer_id\" = \"t0\".\"customer_id\"") + ")\n",
        PlanTest.explain(connection, "SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o"
            + " ON c.CUSTOMER_ID = o.CUSTOMER_ID WHERE c.CUSTOMER_ID = 42"));
  }
}
