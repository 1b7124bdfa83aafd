package io.shardset.bench;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardTable;
import io.shardset.load.ShardedInserter;

import org.apache.calcite.jdbc.CalciteConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the benchmark rows, the same way on every backend: the shards through ShardSet's own
 * {@link ShardedInserter}, so each row lands where ShardSet routes it, and the unsharded
 * database with batched inserts.
 */
final class BenchLoader {
  private static final int BATCH = 2_000;

  private BenchLoader() {
  }

  /** Runs each statement on the database. */
  static void execute(JdbcEndpoint db, List<String> statements) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** Loads the shards of {@code db}, whose tables exist and are empty. */
  static void loadShards(BenchDatabase db) throws SQLException {
    final BenchData data = db.data();
    try (Connection connection = db.connectShardSet()) {
      final ShardSchema schema = connection.unwrap(CalciteConnection.class).getRootSchema()
          .subSchemas().get(Models.SCHEMA).unwrap(ShardSchema.class);
      try (ShardedInserter products =
               ShardedInserter.open(schema.table("PRODUCTS").sharded(), BATCH)) {
        for (int id = 1; id <= BenchData.PRODUCTS; id++) {
          products.insert(BenchData.product(id));
        }
      }
      final ShardTable ordersTable = schema.table("ORDERS");
      try (ShardedInserter orders = ShardedInserter.open(ordersTable.sharded(), BATCH);
           ShardedInserter lines =
               ShardedInserter.open(schema.table("ORDER_LINES").sharded(), BATCH)) {
        for (long id = 1; id <= data.orders(); id++) {
          final Object[] order = data.order(id);
          orders.insert(order);
          for (int line = 1; line <= data.linesOf(id); line++) {
            lines.insert(data.line(order, line));
          }
        }
        orders.close();
        System.out.println("ORDERS per shard: " + Arrays.toString(orders.rowsPerShard()));
      }
    }
  }

  /** Loads every row into the unsharded database of {@code db}. */
  static void loadUnsharded(BenchDatabase db) throws SQLException {
    final BenchData data = db.data();
    try (Connection c = db.unsharded().connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement products = c.prepareStatement(
               "INSERT INTO PRODUCTS VALUES (?, ?, ?, ?)");
           PreparedStatement orders = c.prepareStatement(
               "INSERT INTO ORDERS VALUES (?, ?, ?, ?, ?)");
           PreparedStatement lines = c.prepareStatement(
               "INSERT INTO ORDER_LINES VALUES (?, ?, ?, ?, ?, ?)")) {
        for (int id = 1; id <= BenchData.PRODUCTS; id++) {
          add(products, BenchData.product(id));
        }
        products.executeBatch();
        for (long id = 1; id <= data.orders(); id++) {
          final Object[] order = data.order(id);
          add(orders, order);
          for (int line = 1; line <= data.linesOf(id); line++) {
            add(lines, data.line(order, line));
          }
          if (id % BATCH == 0) {
            orders.executeBatch();
            lines.executeBatch();
            c.commit();
          }
        }
        orders.executeBatch();
        lines.executeBatch();
        c.commit();
      }
    }
  }

  private static void add(PreparedStatement statement, Object[] row) throws SQLException {
    for (int i = 0; i < row.length; i++) {
      statement.setObject(i + 1, row[i]);
    }
    statement.addBatch();
  }
}
