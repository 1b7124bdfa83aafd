package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sorts above the shards (a merge join's inputs, an ORDER BY over a join the shards cannot
 * run), aggregations (the final step of a split aggregation, the groups under a
 * COUNT(DISTINCT), a grouping by an expression ShardSet computes, a grouping of join rows) and
 * hash joins (inner, outer, semi and anti) run within the connection's {@code sortMemory} and
 * spill beyond it: with 16 KB they spill to many files and still give the unsharded answer;
 * rows of one join key beyond it fail naming it; a budget that is not a size is refused
 * naming the property, which shows the operators are ShardSet's.
 */
class SpillingOperatorsTest extends SalesDataTestBase {
  @Override Connection open(String model) throws SQLException {
    final Properties info = Connector.info(model);
    info.setProperty("sortMemory", "16KB");
    return DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX, info);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT A.ORDER_ID, B.ORDER_ID FROM ORDERS A JOIN ORDERS B ON A.AMOUNT = B.AMOUNT"
          + " AND A.ORDER_ID < B.ORDER_ID ORDER BY A.ORDER_ID, B.ORDER_ID",
      "SELECT A.CUSTOMER_ID, B.CUSTOMER_ID, B.NAME FROM CUSTOMERS A JOIN CUSTOMERS B"
          + " ON A.REGION = B.REGION AND A.CUSTOMER_ID < B.CUSTOMER_ID WHERE A.CUSTOMER_ID < 60"
          + " ORDER BY B.CUSTOMER_ID DESC, A.CUSTOMER_ID",
      "SELECT C.REGION, O.STATUS, COUNT(*) AS N FROM ORDERS O JOIN CUSTOMERS C"
          + " ON O.CUSTOMER_ID = C.CUSTOMER_ID + 1 GROUP BY C.REGION, O.STATUS"
          + " ORDER BY N DESC, C.REGION NULLS FIRST, O.STATUS NULLS LAST"})
  void sortsAboveTheShardsSpillAndGiveTheUnshardedOrder(String sql) {
    sql(sql).returnsSomeRows().returnsUnshardedInOrder();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT AMOUNT, COUNT(*), MIN(ORDER_ID) FROM ORDERS GROUP BY AMOUNT",
      "SELECT STATUS, COUNT(*), SUM(AMOUNT), MAX(ORDER_ID) FROM ORDERS GROUP BY STATUS",
      "SELECT COUNT(DISTINCT AMOUNT), COUNT(DISTINCT STATUS) FROM ORDERS",
      "SELECT MOD(ORDER_ID, 97) AS M, COUNT(*), MAX(STATUS) FROM ORDERS GROUP BY MOD(ORDER_ID, 97)",
      "SELECT REGION, COUNT(DISTINCT SIGNUP) FROM CUSTOMERS GROUP BY REGION"})
  void aggregationsOfTheShardsRowsSpillAndGiveTheUnshardedAnswer(String sql) {
    sql(sql).returnsSomeRows().returnsUnsharded();
  }

  /** Joins Calcite runs as merge joins, whose sorted inputs spill. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT O.ORDER_ID, P.ORDER_ID FROM ORDERS O JOIN ORDERS P ON O.AMOUNT = P.AMOUNT",
      "SELECT O.ORDER_ID, C.NAME FROM ORDERS O LEFT JOIN CUSTOMERS C"
          + " ON O.CUSTOMER_ID = C.CUSTOMER_ID + 7 AND C.REGION <> 'EU'",
      "SELECT C.CUSTOMER_ID FROM CUSTOMERS C WHERE NOT EXISTS (SELECT 1 FROM ORDERS O"
          + " WHERE O.CUSTOMER_ID = C.CUSTOMER_ID + 3 AND O.AMOUNT > 1000)"})
  void mergeJoinsAboveTheShardsSpillAndGiveTheUnshardedRows(String sql) {
    sql(sql).explainContains("EnumerableMergeJoin").returnsSomeRows().returnsUnsharded();
  }

  /** Joins Calcite runs as hash joins (inner, those a merge join cannot run, semi-joins). */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT O.ORDER_ID, C.NAME FROM ORDERS O JOIN CUSTOMERS C"
          + " ON O.CUSTOMER_ID = C.CUSTOMER_ID + 2",
      "SELECT O.ORDER_ID, C.NAME FROM ORDERS O RIGHT JOIN CUSTOMERS C"
          + " ON O.CUSTOMER_ID = C.CUSTOMER_ID + 150",
      "SELECT C.CUSTOMER_ID, C.NAME FROM CUSTOMERS C WHERE C.CUSTOMER_ID + 5 IN"
          + " (SELECT O.CUSTOMER_ID FROM ORDERS O WHERE O.STATUS = 'PAID')"})
  void hashJoinsAboveTheShardsSpillAndGiveTheUnshardedRows(String sql) {
    sql(sql).explainContains("EnumerableHashJoin").returnsSomeRows().returnsUnsharded();
  }

  /** A full join, which the H2 oracle does not run: it is a left join and the anti-join of
   * the other side. */
  @Test void aFullHashJoinSpillsAndGivesTheUnshardedRows() {
    sql("SELECT O.ORDER_ID, C.NAME, C.CREDIT FROM ORDERS O FULL JOIN CUSTOMERS C"
        + " ON O.AMOUNT = C.CREDIT")
        .explainContains("EnumerableHashJoin").returnsSomeRows()
        .returnsUnsharded("SELECT O.ORDER_ID, C.NAME, C.CREDIT FROM ORDERS O LEFT JOIN"
            + " CUSTOMERS C ON O.AMOUNT = C.CREDIT UNION ALL SELECT NULL, C.NAME, C.CREDIT"
            + " FROM CUSTOMERS C WHERE NOT EXISTS (SELECT 1 FROM ORDERS O"
            + " WHERE O.AMOUNT = C.CREDIT)");
  }

  @Test void groupingsOfJoinRowsSpillAndGiveTheUnshardedAnswer() {
    sql("SELECT C.REGION, O.AMOUNT, COUNT(*), MAX(C.NAME) FROM ORDERS O JOIN CUSTOMERS C"
        + " ON O.CUSTOMER_ID = C.CUSTOMER_ID + 1 GROUP BY C.REGION, O.AMOUNT")
        .returnsSomeRows().returnsUnsharded();
  }

  @Test void rowsOfOneJoinKeyBeyondTheBudgetFailNamingIt() {
    sql("SELECT COUNT(*) FROM ORDERS A RIGHT JOIN ORDERS B ON A.STATUS = B.STATUS")
        .failsContaining("cannot join above the shards within the sort memory of 16 KB"
            + " (connection property sortMemory): the rows of one join key take more than"
            + " that");
  }

  @Test void anAggregationIsShardSetsToo() throws SQLException {
    assertRefused("0", "SELECT AMOUNT, COUNT(*) FROM ORDERS GROUP BY AMOUNT");
  }


  @Test void aBudgetThatIsNoSizeIsRefusedNamingTheProperty() throws SQLException {
    assertRefused("a lot", "SELECT A.ORDER_ID FROM ORDERS A JOIN ORDERS B ON A.AMOUNT = B.AMOUNT"
        + " ORDER BY A.ORDER_ID");
  }

  /** Runs {@code sql} with the sort memory {@code size}: it fails naming the property. */
  private void assertRefused(String size, String sql) throws SQLException {
    final Properties info = Connector.info(SalesData.model(fixture));
    info.setProperty("sortMemory", size);
    try (Connection c = DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX,
        info)) {
      final SQLException e = assertThrows(SQLException.class, () -> ShardFixture.rows(c, sql));
      assertTrue(e.getMessage().contains("connection property sortMemory must be a positive"
          + " size such as 256MB, 512KB or 1GB, not '" + size + "'"), e.getMessage());
    }
  }

}
