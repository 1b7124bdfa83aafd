package io.shardset.calcite;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code EXISTS} and {@code NOT EXISTS} subqueries, generated over the sales data, give the
 * unsharded database's rows: correlated on the shard key (run inside the shards as semi and
 * anti joins), on another column (joined above the shards), with a second correlated
 * comparison of every kind, over nullable columns on either side, with subquery filters that
 * keep no row, some rows or every row, and below an inner join of the outer tables.
 */
class ExistsDifferentialTest extends SalesDataTestBase {
  /**
   * A statement's shape.
   *
   * @param outer the outer query, up to its condition on the subquery
   * @param table the subquery's table, aliased {@code i}
   * @param correlation the subquery's equality with an outer column
   * @param innerValue a column of the subquery compared with {@code outerValue}
   * @param outerValue a column of the outer query
   */
  private record Shape(String outer, String table, String correlation, String innerValue,
      String outerValue) {
  }

  private static final List<Shape> SHAPES = List.of(
      new Shape("SELECT c.CUSTOMER_ID, c.NAME FROM CUSTOMERS c WHERE", "ORDERS i",
          "i.CUSTOMER_ID = c.CUSTOMER_ID", "i.AMOUNT", "c.CREDIT"),
      new Shape("SELECT o.ORDER_ID, o.STATUS FROM ORDERS o WHERE", "ORDERS i",
          "i.CUSTOMER_ID = o.CUSTOMER_ID", "i.AMOUNT", "o.AMOUNT"),
      new Shape("SELECT o.ORDER_ID FROM ORDERS o WHERE", "ORDERS i",
          "i.CUSTOMER_ID = o.CUSTOMER_ID", "i.STATUS", "o.STATUS"),
      new Shape("SELECT c.NAME, v.SITE FROM CUSTOMERS c JOIN VISITS v"
          + " ON v.CUSTOMER_ID = c.CUSTOMER_ID WHERE v.HITS > 300 AND", "ORDERS i",
          "i.CUSTOMER_ID = c.CUSTOMER_ID", "i.AMOUNT", "c.CREDIT"),
      new Shape("SELECT a.ACCOUNT_ID FROM ACCOUNTS a WHERE", "COUNTRIES i",
          "i.REGION = a.REGION", "i.CODE", "a.REGION"),
      // Not co-located: CUSTOMERS by CUSTOMER_ID, ACCOUNTS by REGION (sometimes null).
      new Shape("SELECT a.ACCOUNT_ID, a.REGION FROM ACCOUNTS a WHERE", "CUSTOMERS i",
          "i.REGION = a.REGION", "i.CREDIT", "a.BALANCE"),
      new Shape("SELECT c.CUSTOMER_ID FROM CUSTOMERS c WHERE", "ACCOUNTS i",
          "i.REGION = c.REGION", "i.BALANCE", "c.CREDIT"));

  /** The subquery's second correlated conjunct, over its value column and the outer one. */
  private static final String[] SECOND = {"", " AND %s <> %s", " AND %s > %s", " AND %s < %s",
      " AND %s = %s"};

  /** The subquery's own filter: none, a column that is sometimes null, no row, every row. */
  private static final String[] OWN = {"", " AND %s IS NOT NULL", " AND 1 = 0",
      " AND 1 = 1"};

  static List<String> statements() {
    final List<String> statements = new ArrayList<>();
    for (Shape shape : SHAPES) {
      for (String not : new String[] {"", "NOT "}) {
        for (int second = 0; second < SECOND.length; second++) {
          final String own = OWN[(second + not.length()) % OWN.length];
          statements.add(shape.outer() + " " + not + "EXISTS (SELECT 1 FROM " + shape.table()
              + " WHERE " + shape.correlation()
              + String.format(Locale.ROOT, SECOND[second], shape.innerValue(),
                  shape.outerValue())
              + String.format(Locale.ROOT, own, shape.innerValue()) + ")");
        }
      }
    }
    return statements;
  }

  @ParameterizedTest
  @MethodSource("statements")
  void sameRowsAsUnsharded(String sql) {
    sql(sql).returnsUnsharded();
  }
}
