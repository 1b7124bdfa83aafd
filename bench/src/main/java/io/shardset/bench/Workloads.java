package io.shardset.bench;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongToIntFunction;

/**
 * The workloads over the benchmark data, as one {@link Operation} per system. Statements are
 * prepared once, outside the measured time; every operation reads every value of every row.
 */
public final class Workloads {
  /** w1: the orders of one customer, by the shard key. */
  public static final String POINT =
      "SELECT ORDER_ID, ORDER_DATE, STATUS, TOTAL FROM ORDERS WHERE CUSTOMER_ID = ?";
  /** w2: the number of keys of the IN-list query. */
  public static final int IN_KEYS = 10;
  /** w2: the orders of ten customers, by the shard key. */
  public static final String IN_LIST =
      "SELECT ORDER_ID, ORDER_DATE, STATUS, TOTAL FROM ORDERS WHERE CUSTOMER_ID IN ("
          + String.join(", ", java.util.Collections.nCopies(IN_KEYS, "?")) + ")";
  /** w3: an aggregate over every shard, grouped by a column of five values. */
  public static final String AGGREGATE = "SELECT STATUS, COUNT(*), SUM(TOTAL), AVG(TOTAL)"
      + " FROM ORDERS GROUP BY STATUS";
  /** w4: the top of a sort on a column that is not the shard key. */
  public static final String TOP = "SELECT ORDER_ID, CUSTOMER_ID, TOTAL FROM ORDERS"
      + " ORDER BY TOTAL DESC, ORDER_ID LIMIT 100";
  /** w5: every order, streamed (run in a child JVM by {@link StreamingProbe}). */
  public static final String SCAN = "SELECT * FROM ORDERS";
  /** w6: the sharded lines joined with the duplicated products, grouped by category. */
  public static final String PRODUCT_JOIN = "SELECT p.CATEGORY, COUNT(*), SUM(l.AMOUNT)"
      + " FROM ORDER_LINES l JOIN PRODUCTS p ON l.PRODUCT_ID = p.PRODUCT_ID"
      + " GROUP BY p.CATEGORY";
  /** w7: orders joined with their co-located lines on the shard key, grouped by status. */
  public static final String COLOCATED_JOIN = "SELECT o.STATUS, COUNT(*), SUM(l.AMOUNT)"
      + " FROM ORDERS o JOIN ORDER_LINES l"
      + " ON o.CUSTOMER_ID = l.CUSTOMER_ID AND o.ORDER_ID = l.ORDER_ID GROUP BY o.STATUS";

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
    final List<PreparedStatement> perShard = prepareOnShards(POINT);
    result.put("D", iteration -> {
      final long key = data.customerKey(iteration);
      return readKeys(perShard.get(systems.shardOfCustomer(key)), List.of(key), 1);
    });
    result.put("N", point(systems.unionAll().prepareStatement(POINT)));
    result.put("X", point(systems.shardSet().prepareStatement(POINT)));
    result.put("S", point(systems.shardingSphere().prepareStatement(POINT)));
    return result;
  }

  /**
   * w2 on L, D, N, X and S: the IN-list query, prepared once, ten new keys each time. D groups
   * the keys by shard with ShardSet's router and queries the shards one after the other,
   * each with only its keys (a shard's unused placeholders repeat one of its keys, which
   * changes no answer, so one prepared statement per shard serves every key count).
   */
  public Map<String, Operation> inList() throws SQLException {
    final Map<String, Operation> result = new LinkedHashMap<>();
    result.put("L", keys(systems.unsharded().prepareStatement(IN_LIST)));
    final List<PreparedStatement> perShard = prepareOnShards(IN_LIST);
    result.put("D", iteration -> {
      long checksum = 0;
      for (Map.Entry<Integer, List<Long>> shard
          : byShard(inKeys(iteration), systems::shardOfCustomer).entrySet()) {
        checksum += readKeys(perShard.get(shard.getKey()), shard.getValue(), IN_KEYS);
      }
      return checksum;
    });
    result.put("N", keys(systems.unionAll().prepareStatement(IN_LIST)));
    result.put("X", keys(systems.shardSet().prepareStatement(IN_LIST)));
    result.put("S", keys(systems.shardingSphere().prepareStatement(IN_LIST)));
    return result;
  }

  /** w6 on L, N, X and S. */
  public Map<String, Operation> productJoin() throws SQLException {
    return scatter(PRODUCT_JOIN, Workloads::readGroups);
  }

  /** w7 on L, N, X and S. */
  public Map<String, Operation> colocatedJoin() throws SQLException {
    return scatter(COLOCATED_JOIN, Workloads::readGroups);
  }

  /**
   * w9 on L, D, X and S: the w1 query sent as a plain {@link Statement} with the key as a
   * literal, a new one each time, so every execution is a new SQL text to parse (and, for X,
   * to plan, unless its plan cache recognizes the shape; S parses each one too).
   */
  public Map<String, Operation> literalPoint() throws SQLException {
    final Map<String, Operation> result = new LinkedHashMap<>();
    result.put("L", literal(systems.unsharded().createStatement()));
    final List<Statement> perShard = new ArrayList<>();
    for (int i = 0; i < systems.shardCount(); i++) {
      perShard.add(systems.shard(i).createStatement());
    }
    result.put("D", iteration -> {
      final long key = data.customerKey(iteration);
      return readLiteral(perShard.get(systems.shardOfCustomer(key)), key);
    });
    result.put("X", literal(systems.shardSet().createStatement()));
    result.put("S", literal(systems.shardingSphere().createStatement()));
    return result;
  }

  /** Keys grouped by the shard {@code shardOf} names, shards and keys in first-seen order. */
  static Map<Integer, List<Long>> byShard(List<Long> keys, LongToIntFunction shardOf) {
    final Map<Integer, List<Long>> result = new LinkedHashMap<>();
    for (long key : keys) {
      result.computeIfAbsent(shardOf.applyAsInt(key), shard -> new ArrayList<>()).add(key);
    }
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

  private List<PreparedStatement> prepareOnShards(String sql) throws SQLException {
    final List<PreparedStatement> perShard = new ArrayList<>();
    for (int i = 0; i < systems.shardCount(); i++) {
      perShard.add(systems.shard(i).prepareStatement(sql));
    }
    return perShard;
  }

  private Operation point(PreparedStatement statement) {
    return iteration -> readKeys(statement, List.of(data.customerKey(iteration)), 1);
  }

  private Operation keys(PreparedStatement statement) {
    return iteration -> readKeys(statement, inKeys(iteration), IN_KEYS);
  }

  private Operation literal(Statement statement) {
    return iteration -> readLiteral(statement, data.customerKey(iteration));
  }

  /** The w2 keys of an iteration: ten keys no other iteration asks for. */
  private List<Long> inKeys(int iteration) {
    final List<Long> keys = new ArrayList<>();
    for (int i = 0; i < IN_KEYS; i++) {
      keys.add(data.customerKey(iteration * IN_KEYS + i));
    }
    return keys;
  }

  /**
   * Runs a query of {@code slots} key placeholders with {@code keys}, the last key repeated
   * in the slots left over, and reads the orders.
   */
  private static long readKeys(PreparedStatement statement, List<Long> keys, int slots)
      throws SQLException {
    for (int i = 0; i < slots; i++) {
      statement.setLong(i + 1, keys.get(Math.min(i, keys.size() - 1)));
    }
    try (ResultSet rs = statement.executeQuery()) {
      return readOrders(rs);
    }
  }

  private static long readLiteral(Statement statement, long key) throws SQLException {
    try (ResultSet rs = statement.executeQuery(POINT.replace("?", Long.toString(key)))) {
      return readOrders(rs);
    }
  }

  static long readOrders(ResultSet rs) throws SQLException {
    long checksum = 0;
    while (rs.next()) {
      checksum += 31 * rs.getLong(1) + 1;
      consume(rs.getDate(2), rs.getString(3), rs.getBigDecimal(4));
    }
    return checksum;
  }

  /**
   * Reads every value of every row as an object, for results of any shape (w16's new shapes,
   * w18's TPC-H queries); returns the number of rows.
   */
  static long readRows(ResultSet rs) throws SQLException {
    final int columns = rs.getMetaData().getColumnCount();
    long rows = 0;
    while (rs.next()) {
      for (int i = 1; i <= columns; i++) {
        rs.getObject(i);
      }
      rows++;
    }
    return rows;
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

  /** Reads rows of a group key, a count and a sum. */
  private static long readGroups(ResultSet rs) throws SQLException {
    long checksum = 0;
    while (rs.next()) {
      checksum += 31L * rs.getString(1).hashCode() + rs.getLong(2) + cents(rs.getBigDecimal(3));
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
  interface RowsReader {
    long read(ResultSet rs) throws SQLException;
  }
}
