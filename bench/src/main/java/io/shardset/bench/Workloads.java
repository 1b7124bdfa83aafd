package io.shardset.bench;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The workloads over the benchmark data, as one {@link Operation} per system. Statements are
 * prepared once, outside the measured time; every operation reads every value of every row.
 */
public final class Workloads {
  /** w1: the orders of one customer, by the shard key. */
  public static final String POINT =
      "SELECT ORDER_ID, ORDER_DATE, STATUS, TOTAL FROM ORDERS WHERE CUSTOMER_ID = ?";
  /** w3: an aggregate over every shard, grouped by a column of five values. */
  public static final String AGGREGATE = "SELECT STATUS, COUNT(*), SUM(TOTAL), AVG(TOTAL)"
      + " FROM ORDERS GROUP BY STATUS";
  /** w4: the top of a sort on a column that is not the shard key. */
  public static final String TOP = "SELECT ORDER_ID, CUSTOMER_ID, TOTAL FROM ORDERS"
      + " ORDER BY TOTAL DESC, ORDER_ID LIMIT 100";

  private final BenchSystems systems;
  private final BenchData data;

  public Workloads(BenchSystems systems, BenchData data) {
    this.systems = Objects.requireNonNull(systems, "systems");
    this.data = Objects.requireNonNull(data, "data");
  }

  /** w1 on L, D, N, X and S: a prepared point query with a new key each time. */
  public Map<String, Operation> pointSelect() throws SQLException {
    final Map<String, Operation> result = new LinkedHashMap<>();
    result.put("L", point(systems.unsharded().prepareStatement(POINT)));
    final List<PreparedStatement> perShard = new ArrayList<>();
    for (int i = 0; i < systems.shardCount(); i++) {
      perShard.add(systems.shard(i).prepareStatement(POINT));
    }
    result.put("D", iteration -> {
      final long key = data.customerKey(iteration);
      return readPoint(perShard.get(systems.shardOfCustomer(key)), key);
    });
    result.put("N", point(systems.unionAll().prepareStatement(POINT)));
    result.put("X", point(systems.shardSet().prepareStatement(POINT)));
    result.put("S", point(systems.shardingSphere().prepareStatement(POINT)));
    return result;
  }

  /** w3 on L, N, X and S (D has no single shard to go to). */
  public Map<String, Operation> scatterAggregate() throws SQLException {
    return scatter(AGGREGATE, Workloads::readAggregate);
  }

  /** w4 on L, N, X and S. */
  public Map<String, Operation> orderByLimit() throws SQLException {
    return scatter(TOP, Workloads::readTop);
  }

  private Map<String, Operation> scatter(String sql, RowsReader reader) throws SQLException {
    final Map<String, Operation> result = new LinkedHashMap<>();
    result.put("L", whole(systems.unsharded().prepareStatement(sql), reader));
    result.put("N", whole(systems.unionAll().prepareStatement(sql), reader));
    result.put("X", whole(systems.shardSet().prepareStatement(sql), reader));
    result.put("S", whole(systems.shardingSphere().prepareStatement(sql), reader));
    return result;
  }

  private Operation point(PreparedStatement statement) {
    return iteration -> readPoint(statement, data.customerKey(iteration));
  }

  private static long readPoint(PreparedStatement statement, long key) throws SQLException {
    statement.setLong(1, key);
    long checksum = 0;
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        checksum += 31 * rs.getLong(1) + 1;
        consume(rs.getDate(2), rs.getString(3), rs.getBigDecimal(4));
      }
    }
    return checksum;
  }

  private static Operation whole(PreparedStatement statement, RowsReader reader) {
    return iteration -> {
      try (ResultSet rs = statement.executeQuery()) {
        return reader.read(rs);
      }
    };
  }

  private static long readAggregate(ResultSet rs) throws SQLException {
    long checksum = 0;
    while (rs.next()) {
      consume(rs.getString(1));
      checksum += rs.getLong(2) + cents(rs.getBigDecimal(3)) + Math.round(rs.getDouble(4));
    }
    return checksum;
  }

  private static long readTop(ResultSet rs) throws SQLException {
    long checksum = 0;
    while (rs.next()) {
      checksum += 31 * rs.getLong(1) + rs.getLong(2) + cents(rs.getBigDecimal(3));
    }
    return checksum;
  }

  private static long cents(BigDecimal value) {
    return value.movePointRight(2).longValue();
  }

  /** Keeps values alive so that no driver can skip decoding them. */
  private static void consume(Object... values) {
    for (Object value : values) {
      if (value == null) {
        throw new IllegalStateException("the benchmark data has no NULLs");
      }
    }
  }

  /** Reads a whole result into a checksum. */
  @FunctionalInterface
  private interface RowsReader {
    long read(ResultSet rs) throws SQLException;
  }
}
