package io.shardset.bench.shardingsphere;

import io.shardset.bench.BenchData;
import io.shardset.bench.Workloads;
import io.shardset.calcite.ShardSchema;
import io.shardset.load.ShardedInserter;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests {@link ShardingSphereSystem} over shards that ShardSet loaded: S must find every row
 * where ShardSet put it.
 */
class ShardingSphereSystemTest {
  private static final BenchData DATA = new BenchData(300);
  private static ShardingSphereSystem system;
  private static Connection connection;

  @BeforeAll static void loadAndOpen() throws Exception {
    final List<String> urls = MemShards.create("shardingsphere-system");
    try (Connection shardSet = MemShards.shardSet(urls)) {
      final ShardSchema schema = MemShards.schema(shardSet);
      try (ShardedInserter products = ShardedInserter.open(schema.table("PRODUCTS").sharded(), 500);
           ShardedInserter orders = ShardedInserter.open(schema.table("ORDERS").sharded(), 500);
           ShardedInserter lines =
               ShardedInserter.open(schema.table("ORDER_LINES").sharded(), 500)) {
        for (int id = 1; id <= BenchData.PRODUCTS; id++) {
          products.insert(BenchData.product(id));
        }
        for (long id = 1; id <= DATA.orders(); id++) {
          final Object[] order = DATA.order(id);
          orders.insert(order);
          for (int line = 1; line <= DATA.linesOf(id); line++) {
            lines.insert(DATA.line(order, line));
          }
        }
      }
    }
    system = ShardingSphereSystem.open(urls, "sa", "");
    connection = system.connect();
  }

  @AfterAll static void close() throws Exception {
    if (connection != null) {
      connection.close();
    }
    if (system != null) {
      system.close();
    }
  }

  @Test void aPointQueryFindsEveryOrderOfItsCustomer() throws SQLException {
    final Map<Long, Integer> expected = new HashMap<>();
    for (long id = 1; id <= DATA.orders(); id++) {
      expected.merge((Long) DATA.order(id)[1], 1, Integer::sum);
    }
    try (PreparedStatement point = connection.prepareStatement(Workloads.POINT)) {
      for (long customer = 1; customer <= DATA.customers(); customer++) {
        point.setLong(1, customer);
        int rows = 0;
        try (ResultSet rs = point.executeQuery()) {
          while (rs.next()) {
            rows++;
          }
        }
        assertEquals(expected.getOrDefault(customer, 0), rows, "CUSTOMER_ID " + customer);
      }
    }
  }

  @Test void aScatterQueryCountsEveryRowOnce() throws SQLException {
    assertEquals(DATA.orders(), count("SELECT COUNT(*) FROM ORDERS"));
    long lines = 0;
    for (long id = 1; id <= DATA.orders(); id++) {
      lines += DATA.linesOf(id);
    }
    // A join of the bound tables stays inside each shard; PRODUCTS is on every shard.
    assertEquals(lines, count("SELECT COUNT(*) FROM ORDERS O JOIN ORDER_LINES L"
        + " ON O.CUSTOMER_ID = L.CUSTOMER_ID AND O.ORDER_ID = L.ORDER_ID"));
    assertEquals(lines, count("SELECT COUNT(*) FROM ORDER_LINES L JOIN PRODUCTS P"
        + " ON L.PRODUCT_ID = P.PRODUCT_ID"));
    assertTrue(lines > DATA.orders(), "orders have more than one line");
  }

  @Test void namesAreSpelledAsEachDatabaseFoldsThem() {
    final String postgres = ShardingSphereYaml.of(
        List.of("jdbc:postgresql://127.0.0.1:5432/s0"), "postgres", "it's", 2);
    assertTrue(postgres.contains("actualDataNodes: s0.orders\n"), postgres);
    assertTrue(postgres.contains("shardingColumn: customer_id\n"), postgres);
    assertTrue(postgres.contains("password: 'it''s'\n"), postgres);
    final String h2 = ShardingSphereYaml.of(List.of("jdbc:h2:/tmp/s0;A=B"), "sa", "", 2);
    assertTrue(h2.contains("actualDataNodes: s0.ORDERS\n"), h2);
    assertTrue(h2.contains("jdbcUrl: 'jdbc:h2:file:/tmp/s0;A=B'\n"), h2);
  }

  @Test void anExtraTableIsShardedLikeOrdersOutsideTheBindingGroup() {
    final String yaml = ShardingSphereYaml.of(List.of("jdbc:postgresql://127.0.0.1:5432/s0",
        "jdbc:postgresql://127.0.0.1:5432/s1"), "postgres", "", 2, List.of("ORDERS_W"));
    assertTrue(yaml.contains("    orders_w:\n      actualDataNodes: s0.orders_w,s1.orders_w\n"
        + "      databaseStrategy:\n        standard:\n          shardingColumn: customer_id\n"
        + "          shardingAlgorithmName: chunk\n"), yaml);
    assertTrue(yaml.contains("  bindingTables:\n    - orders,order_lines\n"), yaml);
  }

  private static long count(String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
