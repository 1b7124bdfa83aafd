package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every query returns through ShardSet exactly the rows it returns on one unsharded database
 * holding the same data.
 */
class ResultEqualityTest extends SalesDataTestBase {
  @ParameterizedTest
  @ValueSource(strings = {
      // consistent hash: points, lists, misses, AND/OR, contradictions, casts of literals
      "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 42",
      "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 999999",
      "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = CAST('42' AS BIGINT)",
      "SELECT * FROM CUSTOMERS WHERE 42 = CUSTOMER_ID",
      "SELECT * FROM ORDERS WHERE CUSTOMER_ID IN (1, 2, 3, 150)",
      "SELECT * FROM ORDERS WHERE CUSTOMER_ID = 1 OR CUSTOMER_ID = 2",
      "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID = 1 AND CUSTOMER_ID = 2",
      "SELECT * FROM CUSTOMERS WHERE (CUSTOMER_ID = 1 AND NAME LIKE 'cust%')"
          + " OR CUSTOMER_ID = 3",
      "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID > 390",
      "SELECT * FROM CUSTOMERS WHERE CUSTOMER_ID IN (5, 6) AND REGION = 'EU'",
      "SELECT * FROM VISITS WHERE CUSTOMER_ID = 5 AND SITE = 'web'",
      "SELECT * FROM VISITS WHERE CUSTOMER_ID IN (5, 6) AND SITE IN ('web', 'ios')",
      "SELECT * FROM VISITS WHERE CUSTOMER_ID = 5",
      // range on a DATE key
      "SELECT * FROM EVENTS WHERE EVENT_DAY = DATE '2020-01-01'",
      "SELECT * FROM EVENTS WHERE EVENT_DAY = CAST('2020-01-01' AS DATE)",
      "SELECT * FROM EVENTS WHERE EVENT_DAY < DATE '2020-01-01'",
      "SELECT * FROM EVENTS WHERE EVENT_DAY <= DATE '2020-01-01'",
      "SELECT * FROM EVENTS WHERE EVENT_DAY > DATE '2021-12-31'",
      "SELECT * FROM EVENTS WHERE EVENT_DAY >= DATE '2022-01-01'",
      "SELECT * FROM EVENTS WHERE EVENT_DAY BETWEEN DATE '2020-06-01' AND DATE '2021-02-01'",
      "SELECT * FROM EVENTS WHERE EVENT_DAY IN (DATE '2019-12-31', DATE '2022-01-01')",
      "SELECT * FROM EVENTS WHERE EVENT_DAY < DATE '2019-01-01'"
          + " OR EVENT_DAY > DATE '2022-06-01'",
      "SELECT * FROM EVENTS WHERE WEIGHT IS NULL",
      // range on a numeric key with bounded ends
      "SELECT * FROM LEDGER WHERE ENTRY_ID BETWEEN 990 AND 1010",
      "SELECT * FROM LEDGER WHERE ENTRY_ID >= 5000",
      "SELECT * FROM LEDGER WHERE ENTRY_ID < 0",
      "SELECT * FROM LEDGER WHERE POSTED < TIMESTAMP '2021-03-02 00:00:00'",
      // list
      "SELECT * FROM ACCOUNTS WHERE REGION = 'EU'",
      "SELECT * FROM ACCOUNTS WHERE REGION IN ('US', 'APAC')",
      "SELECT * FROM ACCOUNTS WHERE REGION <> 'EU'",
      "SELECT * FROM ACCOUNTS WHERE REGION NOT IN ('EU', 'UK', 'US', 'APAC')",
      "SELECT * FROM ACCOUNTS WHERE REGION IS NULL",
      "SELECT * FROM ACCOUNTS WHERE REGION = 'LATAM'",
      "SELECT * FROM ACCOUNTS WHERE REGION = 'EU' OR BALANCE < 0",
      "SELECT COUNT(*) FROM ACCOUNTS WHERE CAST(REGION AS VARCHAR(1)) = 'E'",
      // duplicated
      "SELECT * FROM COUNTRIES",
      "SELECT NAME FROM COUNTRIES WHERE REGION = 'EU'",
      // projections, expressions, NULLs, all rows
      "SELECT * FROM ORDERS",
      "SELECT NAME FROM CUSTOMERS",
      "SELECT ORDER_ID, AMOUNT * 2 AS TWICE, UPPER(STATUS) AS S FROM ORDERS"
          + " WHERE CUSTOMER_ID = 7",
      "SELECT ORDER_ID, COALESCE(STATUS, 'none') FROM ORDERS WHERE STATUS IS NULL",
      "SELECT ORDER_ID, CASE WHEN AMOUNT > 2500 THEN 'big' ELSE 'low' END FROM ORDERS"
          + " WHERE CUSTOMER_ID BETWEEN 10 AND 20",
      "SELECT CUSTOMER_ID, CREDIT FROM CUSTOMERS WHERE CREDIT IS NULL",
      "SELECT CUSTOMER_ID FROM CUSTOMERS WHERE CHAR_LENGTH(NAME) > 11",
      // operators computed above the scans stay correct
      "SELECT REGION, COUNT(*), SUM(CREDIT), MIN(SIGNUP) FROM CUSTOMERS GROUP BY REGION",
      "SELECT c.NAME, o.ORDER_ID, o.AMOUNT FROM CUSTOMERS c JOIN ORDERS o"
          + " ON c.CUSTOMER_ID = o.CUSTOMER_ID WHERE c.CUSTOMER_ID = 10",
      "SELECT a.ACCOUNT_ID, c.NAME FROM ACCOUNTS a JOIN COUNTRIES c ON a.REGION = c.REGION"
          + " WHERE a.ACCOUNT_ID < 40"})
  void sameRowsAsUnsharded(String sql) {
    sql(sql).returnsUnsharded();
  }

  @Test void orderedResultsMatchInOrder() {
    sql("SELECT ORDER_ID, AMOUNT FROM ORDERS WHERE CUSTOMER_ID < 50"
        + " ORDER BY AMOUNT DESC, ORDER_ID LIMIT 10")
        .returnsCount(10)
        .returnsUnshardedInOrder();
  }

  @Test void queriesSeeRows() {
    // The equality checks are only meaningful if the data set has rows where they look.
    sql("SELECT COUNT(*) FROM ORDERS").returns("2000");
    sql("SELECT * FROM ACCOUNTS WHERE REGION IS NULL").returnsSomeRows();
    sql("SELECT * FROM EVENTS WHERE EVENT_DAY = DATE '2020-01-01'").returnsSomeRows();
  }

  /** Statements whose literals are outside ISO-8859-1: CJK, an emoji, and Latin-1 for
   * contrast. */
  private static final List<String> UNICODE_QUERIES = List.of(
      "SELECT * FROM CITIES WHERE NAME = '東京'",
      "SELECT * FROM CITIES WHERE NAME IN ('東京', 'Zürich')",
      "SELECT ID, NAME || '🎉' FROM CITIES WHERE NAME LIKE '%😀%'",
      "SELECT ID, CHAR_LENGTH(NAME), UPPER(NAME) FROM CITIES WHERE NAME <> '大阪'",
      "SELECT * FROM CITIES WHERE CODE = '東京' OR ID = 3");

  @Test void unicodeLiteralsThroughCalciteUrl() throws SQLException {
    assertUnicodeLiterals(Connector.CALCITE);
  }

  @Test void unicodeLiteralsThroughShardSetUrl() throws SQLException {
    assertUnicodeLiterals(Connector.SHARDSET);
  }

  private void assertUnicodeLiterals(Connector opener) throws SQLException {
    try (ShardFixture cities = ShardFixture.create(backend(), 2,
        "CREATE TABLE CITIES (ID INTEGER PRIMARY KEY, CODE VARCHAR(8) NOT NULL,"
            + " NAME VARCHAR(40) NOT NULL)")) {
      final String model = cities.model("\"tables\": [{\"name\": \"CITIES\","
          + " \"method\": \"consistent-hash\", \"shardKey\": [\"CODE\"]}]");
      try (Connection connection = opener.open(model)) {
        cities.load(connection, "CITIES", List.of(
            new Object[] {1, "東京", "東京"}, new Object[] {2, "大阪", "大阪"},
            new Object[] {3, "party", "😀 party"}, new Object[] {4, "zh", "Zürich"}));
        for (String sql : UNICODE_QUERIES) {
          cities.sql(connection, sql).returnsSomeRows().returnsUnsharded();
        }
      }
    }
  }

  /**
   * STDDEV and VARIANCE of a DECIMAL(12, 2) column, computed above the shards from their
   * partial sums, equal the database's value rounded to the column's type (they used to be
   * computed in the column's scale: 546.75 where the database gave 546.7592).
   */
  @ParameterizedTest
  @ValueSource(strings = {"STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP"})
  void varianceIsNotComputedInTheColumnsScale(String function) {
    for (String query : List.of("SELECT %s FROM ORDERS",
        "SELECT STATUS, %s FROM ORDERS GROUP BY STATUS",
        "SELECT CUSTOMER_ID, %s FROM ORDERS WHERE CUSTOMER_ID < 20 GROUP BY CUSTOMER_ID",
        "SELECT %s FROM LEDGER WHERE ENTRY_ID < 2500")) {
      final String sql = String.format(Locale.ROOT, query, function + "(AMOUNT)");
      final String oracleSql =
          String.format(Locale.ROOT, query, "CAST(" + function + "(AMOUNT) AS DECIMAL(12, 2))");
      sql(sql).returnsUnsharded(oracleSql);
    }
  }

  /** LIMIT ? and OFFSET ? take a value of any integral type, as jOOQ binds them with setLong. */
  @Test void limitAndOffsetParametersTakeAnyIntegralType() {
    final String sql = "SELECT ORDER_ID, AMOUNT FROM ORDERS WHERE CUSTOMER_ID < 50"
        + " ORDER BY AMOUNT DESC, ORDER_ID LIMIT ? OFFSET ?";
    final List<Object[]> bindings = new ArrayList<>(List.of(new Object[] {7L, 3L},
        new Object[] {(short) 7, (byte) 3}, new Object[] {7, 3L}));
    if (bindsBigInteger()) {
      bindings.add(new Object[] {BigInteger.valueOf(7), new BigDecimal("3.00")});
    }
    for (Object[] values : bindings) {
      sql(sql).withParameters(values)
          .returnsCount(7)
          .returnsUnshardedInOrder(sql.replace("LIMIT ? OFFSET ?", "LIMIT 7 OFFSET 3"));
    }
    // Without ORDER BY the rows are any 5, but 5 of them.
    sql("SELECT ORDER_ID FROM ORDERS WHERE CUSTOMER_ID < 50 LIMIT ?")
        .withBinding(p -> p.setLong(1, 5), "setLong 5")
        .returnsCount(5);
  }

  /** Whether the connection can bind a BigInteger (Avatica's remote protocol cannot). */
  boolean bindsBigInteger() {
    return true;
  }

  @Test void aNegativeOrFractionalLimitIsRefused() {
    final String sql = "SELECT ORDER_ID FROM ORDERS WHERE CUSTOMER_ID < 50"
        + " ORDER BY ORDER_ID LIMIT ? OFFSET ?";
    // A remote client receives the server's message inside Avatica's own text.
    sql(sql).withParameters(-1L, 0)
        .failsContaining("LIMIT must be a whole number from 0 to 2147483647, got -1");
    sql(sql).withParameters(2, new BigDecimal("0.5"))
        .failsContaining("OFFSET must be a whole number from 0 to 2147483647, got 0.5");
  }
}
