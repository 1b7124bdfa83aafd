package io.shardset.calcite;

import org.apache.calcite.runtime.Hook;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sorts, limits and aggregates pushed into the shards give the unsharded answer, and move
 * only the rows they must (counted at the shards).
 */
class DistributedOperatorsTest extends SalesDataTestBase {
  /** Queries whose ORDER BY is a total order: compared row by row, in order. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT ORDER_ID, AMOUNT FROM ORDERS ORDER BY AMOUNT DESC, ORDER_ID LIMIT 10",
      "SELECT ORDER_ID, AMOUNT FROM ORDERS ORDER BY AMOUNT, ORDER_ID LIMIT 5 OFFSET 7",
      "SELECT ORDER_ID, STATUS FROM ORDERS ORDER BY STATUS NULLS FIRST, ORDER_ID DESC LIMIT 30",
      "SELECT ORDER_ID, STATUS FROM ORDERS ORDER BY STATUS DESC NULLS LAST, ORDER_ID LIMIT 30",
      "SELECT ORDER_ID, STATUS FROM ORDERS ORDER BY STATUS NULLS LAST, ORDER_ID OFFSET 1990 ROWS",
      "SELECT CUSTOMER_ID, CREDIT FROM CUSTOMERS ORDER BY CREDIT DESC NULLS FIRST, CUSTOMER_ID",
      "SELECT CUSTOMER_ID, NAME, SIGNUP FROM CUSTOMERS ORDER BY SIGNUP, NAME",
      "SELECT CUSTOMER_ID, NAME FROM CUSTOMERS ORDER BY NAME DESC FETCH FIRST 12 ROWS ONLY",
      "SELECT ORDER_ID, AMOUNT FROM ORDERS WHERE CUSTOMER_ID = 42 ORDER BY AMOUNT, ORDER_ID",
      "SELECT ORDER_ID FROM ORDERS WHERE CUSTOMER_ID IN (1, 2, 3) ORDER BY ORDER_ID LIMIT 4",
      "SELECT EVENT_ID, EVENT_DAY FROM EVENTS ORDER BY EVENT_DAY DESC, EVENT_ID LIMIT 15",
      "SELECT ENTRY_ID, POSTED FROM LEDGER ORDER BY POSTED DESC LIMIT 3 OFFSET 2",
      "SELECT REGION, COUNT(*) AS N, SUM(CREDIT) AS S FROM CUSTOMERS GROUP BY REGION"
          + " ORDER BY N DESC, REGION",
      "SELECT CUSTOMER_ID, SUM(AMOUNT) AS S FROM ORDERS GROUP BY CUSTOMER_ID"
          + " ORDER BY S DESC, CUSTOMER_ID LIMIT 10",
      "SELECT STATUS, COUNT(*) FROM ORDERS GROUP BY STATUS ORDER BY STATUS NULLS FIRST",
      // one-column rows under Sort and Limit
      "SELECT CUSTOMER_ID FROM CUSTOMERS WHERE CUSTOMER_ID IN (7, 3, 250)"
          + " ORDER BY CUSTOMER_ID DESC",
      "SELECT NAME FROM CUSTOMERS ORDER BY NAME LIMIT 3"})
  void orderedResultsEqualUnsharded(String sql) {
    sql(sql).returnsSomeRows().returnsUnshardedInOrder();
  }

  /** Queries without a total order (or none at all): compared as sorted multisets. */
  @ParameterizedTest
  @ValueSource(strings = {
      // ties in the sort key with LIMIT/OFFSET: the kept sort-key values are determined
      "SELECT STATUS FROM ORDERS ORDER BY STATUS NULLS LAST LIMIT 300",
      "SELECT REGION FROM CUSTOMERS ORDER BY REGION DESC LIMIT 50 OFFSET 60",
      "SELECT SIGNUP FROM CUSTOMERS ORDER BY SIGNUP FETCH FIRST 25 ROWS ONLY",
      // aggregates: split (partial + final) and complete (GROUP BY the shard key)
      "SELECT COUNT(*), COUNT(CREDIT), SUM(CREDIT), MIN(CREDIT), MAX(CREDIT) FROM CUSTOMERS",
      "SELECT REGION, COUNT(*), SUM(CREDIT), MIN(SIGNUP), MAX(NAME) FROM CUSTOMERS"
          + " GROUP BY REGION",
      "SELECT STATUS, COUNT(*) AS N FROM ORDERS GROUP BY STATUS HAVING COUNT(*) > 100",
      "SELECT CUSTOMER_ID, COUNT(*), SUM(AMOUNT) FROM ORDERS GROUP BY CUSTOMER_ID",
      "SELECT CUSTOMER_ID, SUM(AMOUNT) FROM ORDERS GROUP BY CUSTOMER_ID"
          + " HAVING SUM(AMOUNT) > 15000",
      "SELECT CUSTOMER_ID, STATUS, COUNT(*) FROM ORDERS GROUP BY CUSTOMER_ID, STATUS",
      "SELECT CUSTOMER_ID, COUNT(DISTINCT STATUS) FROM ORDERS GROUP BY CUSTOMER_ID",
      "SELECT COUNT(DISTINCT STATUS), COUNT(DISTINCT CUSTOMER_ID) FROM ORDERS",
      "SELECT REGION, COUNT(DISTINCT SIGNUP) FROM CUSTOMERS GROUP BY REGION",
      "SELECT EVENT_DAY, COUNT(*) FROM EVENTS GROUP BY EVENT_DAY",
      "SELECT KIND, SUM(WEIGHT), COUNT(WEIGHT) FROM EVENTS GROUP BY KIND",
      "SELECT REGION, SUM(BALANCE) FROM ACCOUNTS GROUP BY REGION",
      "SELECT SITE, SUM(HITS) FROM VISITS GROUP BY SITE",
      "SELECT CUSTOMER_ID, SITE, SUM(HITS) FROM VISITS GROUP BY CUSTOMER_ID, SITE",
      "SELECT REGION, COUNT(*) FROM COUNTRIES GROUP BY REGION",
      // empty inputs: COUNT of nothing is 0, SUM of nothing is NULL
      "SELECT COUNT(*), SUM(CREDIT), MAX(NAME) FROM CUSTOMERS WHERE NAME = 'nobody'",
      "SELECT COUNT(*), SUM(AMOUNT) FROM ORDERS WHERE CUSTOMER_ID = 999999",
      "SELECT REGION, COUNT(*) FROM CUSTOMERS WHERE NAME = 'nobody' GROUP BY REGION",
      "SELECT COUNT(*) FROM LEDGER WHERE ENTRY_ID > 9999"})
  void unorderedResultsEqualUnsharded(String sql) {
    sql(sql).returnsUnsharded();
  }

  /** Averages: Calcite keeps a DECIMAL argument's scale (and truncates), H2 widens it, so
   * numbers are compared to within one unit of the argument's scale; everything else,
   * including the SUM and COUNT beside them, exactly. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT REGION, AVG(CREDIT) FROM CUSTOMERS GROUP BY REGION",
      "SELECT AVG(AMOUNT), SUM(AMOUNT), COUNT(STATUS) FROM ORDERS",
      "SELECT CUSTOMER_ID, AVG(AMOUNT) FROM ORDERS GROUP BY CUSTOMER_ID",
      "SELECT KIND, AVG(CAST(WEIGHT AS DECIMAL(10, 2))) FROM EVENTS GROUP BY KIND"})
  void averagesEqualUnsharded(String sql) throws SQLException {
    final List<String> expected = sorted(fixture.oracleRows(sql));
    final List<String> actual = sorted(rows(sql));
    assertFalse(expected.isEmpty(), sql);
    assertEquals(expected.size(), actual.size(), sql);
    for (int i = 0; i < expected.size(); i++) {
      final String[] e = expected.get(i).split(", ");
      final String[] a = actual.get(i).split(", ");
      assertEquals(e.length, a.length, sql);
      for (int j = 0; j < e.length; j++) {
        if (e[j].contains(".") || a[j].contains(".")) {
          final BigDecimal difference = new BigDecimal(e[j]).subtract(new BigDecimal(a[j]));
          assertTrue(difference.abs().compareTo(new BigDecimal("0.01")) <= 0,
              sql + ": " + expected.get(i) + " vs " + actual.get(i));
        } else {
          assertEquals(e[j], a[j], sql);
        }
      }
    }
  }

  @Test void groupByShardKeyReturnsEachGroupOnceFromItsShard() throws SQLException {
    final int customers = Integer.parseInt(
        fixture.oracleRows("SELECT COUNT(DISTINCT CUSTOMER_ID) FROM ORDERS").get(0));
    // One row per customer with orders came from the shards, and no order rows.
    sql("SELECT CUSTOMER_ID, COUNT(*), SUM(AMOUNT) FROM ORDERS GROUP BY CUSTOMER_ID")
        .readsOnlyReturnedRows()
        .returnsCount(customers)
        .returnsUnsharded();
  }

  @Test void partialAggregateReturnsOneRowPerGroupPerShard() {
    // Three statuses (PAID, SHIPPED, NULL) on every shard.
    sql("SELECT STATUS, COUNT(*), SUM(AMOUNT) FROM ORDERS GROUP BY STATUS")
        .readsFromEachShard(3)
        .returnsUnsharded();
    sql("SELECT COUNT(*), SUM(AMOUNT) FROM ORDERS").readsRows(4).returnsUnsharded();
  }

  @Test void orderByLimitFetchesAtMostLimitRowsPerShard() {
    sql("SELECT ORDER_ID, AMOUNT FROM ORDERS ORDER BY AMOUNT DESC LIMIT 10")
        .returnsCount(10)
        .readsAtMostFromEachShard(10);
    // Two sort keys and a limit equal to the planner's default row estimate.
    sql("SELECT ORDER_ID, CUSTOMER_ID, AMOUNT FROM ORDERS ORDER BY AMOUNT DESC, ORDER_ID LIMIT 100")
        .returnsCount(100)
        .readsAtMostFromEachShard(100)
        .returnsUnshardedInOrder();
    sql("SELECT ORDER_ID FROM ORDERS ORDER BY ORDER_ID LIMIT 5 OFFSET 20")
        .readsAtMostFromEachShard(25)
        .returnsUnshardedInOrder();
  }

  @Test void explainShowsWhatIsPushedAndWhatIsMergedAbove() {
    sql("SELECT * FROM ORDERS ORDER BY AMOUNT DESC, ORDER_ID LIMIT 10")
        .explainIs("EnumerableLimit(fetch=[10])\n"
            + "  EnumerableShardScan(table=[[S, ORDERS]], shards=[4 of 4: s0, s1, s2, s3],"
            + " merge=[sorted [3 DESC, 0]], "
            + explainSql("SELECT * FROM \"ORDERS\""
                + " ORDER BY \"AMOUNT\" DESC NULLS FIRST, \"ORDER_ID\" NULLS LAST"
                + " FETCH NEXT 10 ROWS ONLY",
            "SELECT * FROM \"orders\" ORDER BY \"amount\" DESC, \"order_id\""
                + " FETCH NEXT 10 ROWS ONLY",
            // MySQL's dialect: NULLs sort low there, so NULLS FIRST becomes "IS NULL DESC".
            "SELECT * FROM `ORDERS` ORDER BY `AMOUNT` IS NULL DESC, `AMOUNT` DESC, `ORDER_ID`"
                + " LIMIT 10") + ")\n");
    sql("SELECT STATUS, COUNT(*) FROM ORDERS GROUP BY STATUS")
        .explainIs("EnumerableAggregate(group=[{0}], EXPR$1=[$SUM0($1)])\n"
            + "  EnumerableShardScan(table=[[S, ORDERS]], shards=[4 of 4: s0, s1, s2, s3], "
            + explainSql("SELECT \"STATUS\", COUNT(*) FROM \"ORDERS\" GROUP BY \"STATUS\"",
            "SELECT \"status\" AS \"STATUS\", COUNT(*) FROM \"orders\""
                + " GROUP BY \"status\"") + ")\n");
    sql("SELECT CUSTOMER_ID, COUNT(*) FROM ORDERS GROUP BY CUSTOMER_ID")
        .explainIs("EnumerableShardScan(table=[[S, ORDERS]], shards=[4 of 4: s0, s1, s2, s3], "
            + explainSql("SELECT \"CUSTOMER_ID\", COUNT(*) FROM \"ORDERS\""
                + " GROUP BY \"CUSTOMER_ID\"",
            "SELECT \"customer_id\" AS \"CUSTOMER_ID\", COUNT(*) FROM \"orders\""
                + " GROUP BY \"customer_id\"") + ")\n");
  }

  @Test void preparedStatementIsPlannedOnceAndPrunedPerExecution() throws SQLException {
    final AtomicInteger plannings = new AtomicInteger();
    try (Hook.Closeable ignored =
             Hook.PLANNER.addThread((Consumer<Object>) planner -> plannings.incrementAndGet());
         PreparedStatement p = connection.prepareStatement(
             "SELECT COUNT(*) FROM ORDERS WHERE CUSTOMER_ID = ?")) {
      for (long id = 1; id <= 20; id++) {
        p.setLong(1, id);
        fixture.shards().resetCounters();
        try (ResultSet rs = p.executeQuery()) {
          assertTrue(rs.next());
          assertEquals(fixture.oracleRows(
                  "SELECT COUNT(*) FROM ORDERS WHERE CUSTOMER_ID = " + id),
              List.of(Long.toString(rs.getLong(1))));
        }
        assertEquals(1, fixture.shardsReached().size(), "customer " + id);
      }
    }
    assertEquals(1, plannings.get());
  }
}
