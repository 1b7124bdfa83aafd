package io.shardset.tpch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The rows of a query result, each value in a form that does not depend on the engine that
 * produced it: exact numbers of any type as {@link BigDecimal} without trailing zeros,
 * approximate numbers as {@link Double}, dates as {@link java.time.LocalDate}.
 */
final class ResultRows {
  private final List<List<Object>> rows;

  private ResultRows(List<List<Object>> rows) {
    this.rows = rows;
  }

  /** Reads every row of a result set. */
  static ResultRows read(ResultSet rs) throws SQLException {
    final ResultSetMetaData md = rs.getMetaData();
    final List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      final Object[] row = new Object[md.getColumnCount()];
      for (int i = 0; i < row.length; i++) {
        row[i] = normalize(rs.getObject(i + 1));
      }
      rows.add(Collections.unmodifiableList(Arrays.asList(row)));
    }
    return new ResultRows(Collections.unmodifiableList(rows));
  }

  /** Rows given directly, each value as {@link #read} would normalize it. */
  static ResultRows of(List<List<Object>> rows) {
    final List<List<Object>> copy = new ArrayList<>();
    for (List<Object> row : rows) {
      copy.add(Collections.unmodifiableList(
          Arrays.asList(row.stream().map(ResultRows::normalize).toArray())));
    }
    return new ResultRows(Collections.unmodifiableList(copy));
  }

  static Object normalize(Object value) {
    if (value instanceof Byte || value instanceof Short || value instanceof Integer
        || value instanceof Long) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (value instanceof BigDecimal d) {
      // Without trailing zeros, 2.50 and 2.5 are equal; signum() keeps 0.00 from being 0E-2.
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    if (value instanceof Date d) {
      return d.toLocalDate();
    }
    if (value instanceof Timestamp t) {
      return t.toLocalDateTime();
    }
    return value;
  }

  List<List<Object>> rows() {
    return rows;
  }

  int size() {
    return rows.size();
  }

  /** The rows in the order of their text, to compare results whose order is not defined. */
  ResultRows sorted() {
    final List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort((a, b) -> text(a).compareTo(text(b)));
    return new ResultRows(Collections.unmodifiableList(copy));
  }

  private static String text(List<Object> row) {
    final StringBuilder b = new StringBuilder();
    for (Object value : row) {
      b.append(value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(value))
          .append('\u0000');
    }
    return b.toString();
  }

  @Override public String toString() {
    return rows.toString();
  }
}
