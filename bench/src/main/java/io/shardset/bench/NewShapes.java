package io.shardset.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * w16: the cost of a statement shape never seen before: prepare, execute and read a query
 * whose text differs from every earlier one in more than its literals (its select list's order
 * and aliases, and one predicate, change with the iteration), so that no plan cache keyed by
 * the text or by its parameterized shape can answer. Two shapes: a point query by the shard
 * key of ORDERS, and a three-way join of ORDERS, their co-located ORDER_LINES and the
 * duplicated PRODUCTS for one customer. The texts also carry a salt, so that two systems of one
 * process (X at 4 and at 1024 shards) never share a text.
 */
public final class NewShapes {
  /** The target of a new point query shape, prepare and execute, median ms. */
  public static final double POINT_TARGET_MILLIS = 10;
  /** The target of a new three-way join shape, prepare and execute, median ms. */
  public static final double JOIN_TARGET_MILLIS = 50;

  private static final List<String> ORDER_COLUMNS =
      List.of("ORDER_ID", "ORDER_DATE", "STATUS", "TOTAL");
  private static final List<String> JOIN_COLUMNS =
      List.of("o.ORDER_ID", "o.STATUS", "l.LINE_NO", "l.AMOUNT", "p.NAME", "p.CATEGORY");
  private static final List<String> ORDER_PREDICATES =
      List.of("TOTAL >= %d", "STATUS <> 'X%d'", "ORDER_ID > -%d", "ORDER_DATE > DATE '1990-01-01'");
  private static final List<String> JOIN_PREDICATES =
      List.of("l.QTY < %d + 100", "p.PRICE >= -%d", "o.STATUS <> 'X%d'",
          "l.LINE_NO > -%d");

  /** The two shapes. */
  public enum Shape {
    POINT, JOIN
  }

  private NewShapes() {
  }

  /** The text of the {@code iteration}-th new statement of a shape, for key and salt. */
  public static String sql(Shape shape, String salt, int iteration, long key) {
    final List<String> columns = shape == Shape.POINT ? ORDER_COLUMNS : JOIN_COLUMNS;
    final StringBuilder select = new StringBuilder("SELECT ");
    for (int j = 0; j < columns.size(); j++) {
      // Rotate the select list, so that column order changes too, not only the names.
      final String column = columns.get((j + iteration) % columns.size());
      select.append(j == 0 ? "" : ", ").append(column).append(" AS ")
          .append(String.format(Locale.ROOT, "%s_%d_%d", salt, iteration, j));
    }
    final List<String> predicates = shape == Shape.POINT ? ORDER_PREDICATES : JOIN_PREDICATES;
    final String extra = String.format(Locale.ROOT,
        predicates.get(Math.floorMod(iteration / columns.size(), predicates.size())), iteration);
    return shape == Shape.POINT
        ? select + " FROM ORDERS WHERE CUSTOMER_ID = " + key + " AND " + extra
        : select + " FROM ORDERS o JOIN ORDER_LINES l ON o.CUSTOMER_ID = l.CUSTOMER_ID"
            + " AND o.ORDER_ID = l.ORDER_ID JOIN PRODUCTS p ON l.PRODUCT_ID = p.PRODUCT_ID"
            + " WHERE o.CUSTOMER_ID = " + key + " AND " + extra;
  }

  /** The operation: prepare the iteration's new text on the connection, run it, read it. */
  public static Operation operation(Connection connection, Shape shape, String salt) {
    return iteration -> prepareAndRun(connection, sql(shape, salt, iteration, 1 + iteration));
  }

  /** Prepares, executes and reads a statement; returns the number of rows, the checksum. */
  static long prepareAndRun(Connection connection, String sql) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql);
         ResultSet rs = statement.executeQuery()) {
      return Workloads.readRows(rs);
    }
  }
}
