package io.shardset.calcite;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** EXPLAIN shows one shard scan per table with the shards it reaches and the pushed SQL. */
class PlanTest extends SalesDataTestBase {
  @Test void pointQueryReachesOneShard() {
    final String shard = "s" + shardOfLong(42, 480, 4);
    sql("SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 42")
        .explainIs("EnumerableShardScan(table=[[S, CUSTOMERS]], shards=[1 of 4: " + shard
            + "], sql=[SELECT * FROM \"CUSTOMERS\" WHERE \"CUSTOMER_ID\" = 42])\n")
        .reaches(shard)
        .sends(shard, "SELECT * FROM \"CUSTOMERS\" WHERE \"CUSTOMER_ID\" = 42")
        .returnsCount(1)
        .returnsUnsharded();
  }

  @Test void filterAndProjectionArePushed() throws SQLException {
    assertEquals("EnumerableShardScan(table=[[S, EVENTS]], shards=[2 of 4: s1, s2],"
            + " sql=[SELECT \"EVENT_ID\", \"KIND\" FROM \"EVENTS\" WHERE \"EVENT_DAY\" >="
            + " DATE '2020-06-01' AND \"EVENT_DAY\" <= DATE '2021-02-01'])\n",
        explain("SELECT EVENT_ID, KIND FROM EVENTS"
            + " WHERE EVENT_DAY BETWEEN DATE '2020-06-01' AND DATE '2021-02-01'"));
  }

  @Test void parameterisedKeyIsPrunedAtExecution() {
    final String shard = "s" + shardOfLong(42, 480, 4);
    sql("SELECT NAME FROM CUSTOMERS WHERE CUSTOMER_ID = ?")
        .explainIs("EnumerableShardScan(table=[[S, CUSTOMERS]], shards=[at execution by ?0"
            + " of 4], sql=[SELECT \"NAME\" FROM \"CUSTOMERS\" WHERE \"CUSTOMER_ID\" = ?])\n")
        .withParameters(42L)
        .reaches(shard)
        .sends(shard, "SELECT \"NAME\" FROM \"CUSTOMERS\" WHERE \"CUSTOMER_ID\" = ?")
        .returnsCount(1)
        .returnsUnsharded();
  }

  /**
   * A list of keys reaches the shards as {@code IN}, and other conditions as flat AND/OR chains:
   * Calcite writes them as nested trees, for which H2 scans instead of using its index.
   */
  @Test void keyListsAreSentAsInAndConditionsUnnested() throws SQLException {
    assertEquals("EnumerableShardScan(table=[[S, CUSTOMERS]], shards=[at execution by ?0 ?1 ?2"
            + " ?3 ?4 of 4], sql=[SELECT \"NAME\" FROM \"CUSTOMERS\" WHERE \"CUSTOMER_ID\""
            + " IN (?, ?, ?, ?, ?)])\n",
        explain("SELECT NAME FROM CUSTOMERS WHERE CUSTOMER_ID IN (?, ?, ?, ?, ?)"));
    assertEquals("EnumerableShardScan(table=[[S, CUSTOMERS]], shards=[4 of 4: s0, s1, s2, s3],"
            + " sql=[SELECT \"NAME\" FROM \"CUSTOMERS\" WHERE \"CUSTOMER_ID\" = ? OR"
            + " \"CUSTOMER_ID\" = ? OR \"NAME\" = ? OR \"REGION\" = ?])\n",
        explain("SELECT NAME FROM CUSTOMERS WHERE CUSTOMER_ID = ? OR CUSTOMER_ID = ?"
            + " OR NAME = ? OR REGION = ?"));
  }

  @Test void duplicatedTableReadsOneShard() {
    sql("SELECT * FROM COUNTRIES")
        .explainIs("EnumerableShardScan(table=[[S, COUNTRIES]], shards=[1 of 4: s0],"
            + " sql=[SELECT * FROM \"COUNTRIES\"])\n")
        .reaches("s0")
        .sends("s0", "SELECT * FROM \"COUNTRIES\"")
        .returnsUnsharded();
  }

  @Test void listExclusionIsPruned() {
    sql("SELECT * FROM ACCOUNTS WHERE REGION NOT IN ('EU', 'UK')")
        .explainIs("EnumerableShardScan(table=[[S, ACCOUNTS]], shards=[3 of 4: s1, s2, s3],"
            + " sql=[SELECT * FROM \"ACCOUNTS\" WHERE \"REGION\" NOT IN ('EU', 'UK')])\n")
        .reaches("s1", "s2", "s3")
        .returnsUnsharded();
  }

  @Test void joinReadsOnlyTheColumnsItNeeds() {
    // Not co-located (ORDERS is joined on ORDER_ID): joined above two narrowed scans.
    sql("SELECT o.AMOUNT, e.KIND FROM ORDERS o JOIN EVENTS e ON o.ORDER_ID = e.EVENT_ID")
        .explainContains("EnumerableShardScan(table=[[S, ORDERS]], shards=[4 of 4: s0, s1,"
            + " s2, s3], sql=[SELECT \"ORDER_ID\", \"AMOUNT\" FROM \"ORDERS\"])",
            "EnumerableShardScan(table=[[S, EVENTS]], shards=[4 of 4: s0, s1,"
            + " s2, s3], sql=[SELECT \"KIND\", CAST(\"EVENT_ID\" AS BIGINT) AS \"EVENT_ID0\""
            + " FROM \"EVENTS\"])")
        .sendsNothingContaining("JOIN")
        .returnsUnsharded();
  }

  static String explain(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private String explain(String sql) throws SQLException {
    return explain(connection, sql);
  }
}
