package io.shardset.calcite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

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
  void joinsEqualUnsharded(String sql) {
    sql(sql).returnsSomeRows().returnsUnsharded();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      // semi joins on the shard key of a table family: inside the shards
      "SELECT c.NAME FROM CUSTOMERS c WHERE EXISTS (SELECT 1 FROM ORDERS o"
          + " WHERE o.CUSTOMER_ID = c.CUSTOMER_ID AND o.AMOUNT > 100)",
      "SELECT c.CUSTOMER_ID, c.REGION FROM CUSTOMERS c WHERE c.CUSTOMER_ID IN"
          + " (SELECT o.CUSTOMER_ID FROM ORDERS o WHERE o.AMOUNT > 500)",
      "SELECT c.REGION FROM CUSTOMERS c WHERE EXISTS (SELECT 1 FROM ORDERS o"
          + " WHERE o.CUSTOMER_ID = c.CUSTOMER_ID)",
      "SELECT c.NAME FROM CUSTOMERS c WHERE c.CUSTOMER_ID IN (SELECT o.CUSTOMER_ID FROM ORDERS o"
          + " GROUP BY o.CUSTOMER_ID HAVING SUM(o.AMOUNT) > 1000)",
      "SELECT c.REGION, COUNT(*) FROM CUSTOMERS c WHERE EXISTS (SELECT 1 FROM ORDERS o"
          + " WHERE o.CUSTOMER_ID = c.CUSTOMER_ID AND o.AMOUNT < 50) GROUP BY c.REGION",
      "SELECT c.NAME FROM CUSTOMERS c WHERE c.CUSTOMER_ID = 42 AND EXISTS (SELECT 1 FROM"
          + " ORDERS o WHERE o.CUSTOMER_ID = c.CUSTOMER_ID)",
      "SELECT a.ACCOUNT_ID FROM ACCOUNTS a WHERE a.REGION IN (SELECT k.REGION FROM COUNTRIES k"
          + " WHERE k.CODE > 'M')",
      // anti joins and conditions beyond key equalities, as [NOT] EXISTS in the shards
      "SELECT c.CUSTOMER_ID FROM CUSTOMERS c WHERE NOT EXISTS (SELECT 1 FROM ORDERS o"
          + " WHERE o.CUSTOMER_ID = c.CUSTOMER_ID AND o.AMOUNT > 100)",
      "SELECT c.NAME FROM CUSTOMERS c WHERE EXISTS (SELECT 1 FROM ORDERS o"
          + " WHERE o.CUSTOMER_ID = c.CUSTOMER_ID AND o.AMOUNT > c.CUSTOMER_ID)",
      "SELECT o.ORDER_ID, o.AMOUNT FROM ORDERS o WHERE NOT EXISTS (SELECT 1 FROM ORDERS o2"
          + " WHERE o2.CUSTOMER_ID = o.CUSTOMER_ID AND o2.AMOUNT > o.AMOUNT)",
      "SELECT o.ORDER_ID FROM ORDERS o WHERE EXISTS (SELECT 1 FROM ORDERS o2"
          + " WHERE o2.CUSTOMER_ID = o.CUSTOMER_ID AND o2.ORDER_ID <> o.ORDER_ID)"
          + " AND NOT EXISTS (SELECT 1 FROM ORDERS o3 WHERE o3.CUSTOMER_ID = o.CUSTOMER_ID"
          + " AND o3.ORDER_ID <> o.ORDER_ID AND o3.AMOUNT < 20)",
      "SELECT c.NAME, v.SITE FROM CUSTOMERS c JOIN VISITS v ON v.CUSTOMER_ID = c.CUSTOMER_ID"
          + " WHERE NOT EXISTS (SELECT 1 FROM ORDERS o WHERE o.CUSTOMER_ID = c.CUSTOMER_ID"
          + " AND o.AMOUNT > 4500)",
      "SELECT a.ACCOUNT_ID FROM ACCOUNTS a WHERE NOT EXISTS (SELECT 1 FROM COUNTRIES k"
          + " WHERE k.REGION = a.REGION AND k.CODE > 'M')",
      // not pushed: NOT IN (null-aware), an outer column in no equality, a duplicated left
      "SELECT c.CUSTOMER_ID FROM CUSTOMERS c WHERE c.CUSTOMER_ID NOT IN"
          + " (SELECT o.CUSTOMER_ID FROM ORDERS o WHERE o.AMOUNT > 100)",
      "SELECT c.NAME FROM CUSTOMERS c WHERE EXISTS (SELECT 1 FROM ORDERS o"
          + " WHERE o.AMOUNT > c.CUSTOMER_ID * 10)",
      "SELECT k.CODE FROM COUNTRIES k WHERE k.REGION IN (SELECT a.REGION FROM ACCOUNTS a)",
      "SELECT k.CODE FROM COUNTRIES k WHERE NOT EXISTS (SELECT 1 FROM ACCOUNTS a"
          + " WHERE a.REGION = k.REGION AND a.BALANCE > 14900)"})
  void semiAndAntiJoinsEqualUnsharded(String sql) {
    sql(sql).returnsSomeRows().returnsUnsharded();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      // a subquery grouped by the shard key: its groups live where the rows they match do
      "SELECT c.NAME, t.TOTAL FROM CUSTOMERS c JOIN (SELECT CUSTOMER_ID, SUM(AMOUNT) AS TOTAL"
          + " FROM ORDERS GROUP BY CUSTOMER_ID) t ON t.CUSTOMER_ID = c.CUSTOMER_ID",
      "SELECT t.N, c.NAME FROM (SELECT CUSTOMER_ID, COUNT(*) AS N FROM ORDERS"
          + " GROUP BY CUSTOMER_ID) t JOIN CUSTOMERS c ON c.CUSTOMER_ID = t.CUSTOMER_ID",
      "SELECT c.CUSTOMER_ID, t.TOTAL FROM CUSTOMERS c LEFT JOIN (SELECT CUSTOMER_ID,"
          + " SUM(AMOUNT) AS TOTAL FROM ORDERS WHERE AMOUNT > 400 GROUP BY CUSTOMER_ID) t"
          + " ON t.CUSTOMER_ID = c.CUSTOMER_ID",
      // TPC-H Q18's shape: IN over a grouped subquery, and a table joined on another column
      "SELECT c.NAME, o.ORDER_ID, v.SITE FROM ORDERS o JOIN CUSTOMERS c"
          + " ON c.CUSTOMER_ID = o.CUSTOMER_ID JOIN VISITS v ON v.CUSTOMER_ID = c.CUSTOMER_ID"
          + " WHERE o.CUSTOMER_ID IN (SELECT CUSTOMER_ID FROM ORDERS GROUP BY CUSTOMER_ID"
          + " HAVING SUM(AMOUNT) > 1000)",
      "SELECT v.SITE, o.ORDER_ID, SUM(o.AMOUNT) FROM VISITS v JOIN ORDERS o"
          + " ON v.CUSTOMER_ID = o.CUSTOMER_ID WHERE v.HITS > 500 AND o.CUSTOMER_ID IN"
          + " (SELECT CUSTOMER_ID FROM ORDERS GROUP BY CUSTOMER_ID HAVING SUM(AMOUNT) > 1000)"
          + " GROUP BY v.SITE, o.ORDER_ID",
      // not grouped by the shard key: joined above the scans
      "SELECT c.NAME, t.N FROM CUSTOMERS c JOIN (SELECT ORDER_ID, COUNT(*) AS N FROM ORDERS"
          + " GROUP BY ORDER_ID) t ON t.ORDER_ID = c.CUSTOMER_ID",
      "SELECT c.NAME, t.N FROM CUSTOMERS c JOIN (SELECT AMOUNT, COUNT(*) AS N FROM ORDERS"
          + " GROUP BY AMOUNT) t ON t.N = c.CUSTOMER_ID"})
  void joinsWithGroupedSubqueriesEqualUnsharded(String sql) {
    sql(sql).returnsSomeRows().returnsUnsharded();
  }

  @Test void aJoinWithASubqueryGroupedByTheShardKeyRunsInsideTheShards() {
    sql("SELECT c.NAME, t.TOTAL FROM CUSTOMERS c JOIN (SELECT CUSTOMER_ID, SUM(AMOUNT) AS TOTAL"
        + " FROM ORDERS GROUP BY CUSTOMER_ID) t ON t.CUSTOMER_ID = c.CUSTOMER_ID")
        .executesOnEachShard(1)
        .sendsContaining("GROUP BY")
        .sendsContaining("JOIN")
        .readsOnlyReturnedRows()
        .returnsUnsharded();
  }

  @Test void anInOverAGroupedSubqueryStaysWithItsCoLocatedJoinWhenAnotherTableJoinsAbove() {
    // Ordered heuristically (three relations), the grouped subquery must be one shard scan by
    // then, or the join order can put it above the other table's join.
    sql("SELECT v.SITE, o.ORDER_ID, SUM(o.AMOUNT) FROM VISITS v JOIN ORDERS o"
        + " ON v.CUSTOMER_ID = o.CUSTOMER_ID WHERE v.HITS > 500 AND o.CUSTOMER_ID IN"
        + " (SELECT CUSTOMER_ID FROM ORDERS GROUP BY CUSTOMER_ID HAVING SUM(AMOUNT) > 1000)"
        + " GROUP BY v.SITE, o.ORDER_ID")
        .sendsToEachReachedShard("INNER JOIN", "GROUP BY", "HAVING")
        .returnsUnsharded();
  }

  @Test void colocatedExistsRunsInsideTheShardsAsAJoinWithDistinctKeys() {
    // Written as an inner join with the right side's distinct keys, each customer comes out
    // once however many orders match; only the answer's rows leave the shards.
    sql("SELECT c.NAME FROM CUSTOMERS c WHERE EXISTS (SELECT 1 FROM ORDERS o"
        + " WHERE o.CUSTOMER_ID = c.CUSTOMER_ID AND o.AMOUNT > 100)")
        .executesOnEachShard(1)
        .sendsContaining("JOIN")
        .sendsContaining("GROUP BY")
        .readsOnlyReturnedRows()
        .returnsUnsharded();
  }

  @Test void colocatedAntiJoinRunsInsideTheShardsAsNotExists() {
    // Each customer's largest orders: the other orders of a customer are on its shard.
    sql("SELECT o.ORDER_ID, o.AMOUNT FROM ORDERS o WHERE NOT EXISTS (SELECT 1 FROM ORDERS o2"
        + " WHERE o2.CUSTOMER_ID = o.CUSTOMER_ID AND o2.AMOUNT > o.AMOUNT)")
        .executesOnEachShard(1)
        .sendsToEachReachedShard(" WHERE NOT EXISTS (SELECT * FROM (SELECT ")
        .readsOnlyReturnedRows()
        .returnsUnsharded();
  }

  @Test void colocatedJoinSendsOneJoinedQueryPerShardAndNoBaseRows() {
    sql("SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o"
        + " ON c.CUSTOMER_ID = o.CUSTOMER_ID")
        .executesOnEachShard(1)
        .sendsContaining("JOIN")
        .readsOnlyReturnedRows()
        .returnsUnsharded();
  }

  @Test void colocatedJoinIsPrunedByEitherSide() {
    sql("SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o"
        + " ON c.CUSTOMER_ID = o.CUSTOMER_ID WHERE o.CUSTOMER_ID = 77")
        .reaches("s" + shardOfLong(77, 480, 4))
        .executes(1)
        .returnsUnsharded();
  }

  @Test void explainShowsTheJoinInsideTheShards() {
    final String shard = "s" + shardOfLong(42, 480, 4);
    sql("SELECT c.NAME, o.ORDER_ID FROM CUSTOMERS c JOIN ORDERS o"
        + " ON c.CUSTOMER_ID = o.CUSTOMER_ID WHERE c.CUSTOMER_ID = 42")
        .explainIs("EnumerableShardScan(table=[[S, ORDERS], [S, CUSTOMERS]],"
            + " shards=[1 of 4: " + shard + "], "
            + explainSql("SELECT \"t0\".\"NAME\", \"t\".\"ORDER_ID\" FROM (SELECT *"
                + " FROM \"ORDERS\" WHERE \"CUSTOMER_ID\" = 42) AS \"t\" INNER JOIN (SELECT *"
                + " FROM \"CUSTOMERS\" WHERE \"CUSTOMER_ID\" = 42) AS \"t0\""
                + " ON \"t\".\"CUSTOMER_ID\" = \"t0\".\"CUSTOMER_ID\"",
            "SELECT \"t0\".\"name\" AS \"NAME\", \"t\".\"order_id\" AS \"ORDER_ID\" FROM"
                + " (SELECT * FROM \"orders\" WHERE \"customer_id\" = 42) AS \"t\" INNER JOIN"
                + " (SELECT * FROM \"customers\" WHERE \"customer_id\" = 42) AS \"t0\""
                + " ON \"t\".\"customer_id\" = \"t0\".\"customer_id\"") + ")\n")
        .reaches(shard)
        .returnsUnsharded();
  }
}
