package io.shardset.bench;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardTable;
import io.shardset.load.ShardedInserter;

import org.apache.calcite.jdbc.CalciteConnection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * The benchmark's H2 files in one folder: the shards s0..s3, placed by ShardSet's own routing,
 * one unsharded database with every row, and the models of X and N over the shards.
 */
public final class BenchDatabase {
  /** The number of shards of the data set. */
  public static final int SHARDS = 4;
  private static final int BATCH = 2_000;

  private final Path folder;
  private final BenchData data;

  private BenchDatabase(Path folder, BenchData data) {
    this.folder = Objects.requireNonNull(folder, "folder");
    this.data = Objects.requireNonNull(data, "data");
  }

  /**
   * The database of {@code data} in a folder of {@code parent} named by its size, created and
   * loaded unless an earlier run left it complete.
   */
  public static BenchDatabase open(Path parent, BenchData data) throws Exception {
    final BenchDatabase db =
        new BenchDatabase(parent.resolve("orders-" + data.orders()).toAbsolutePath(), data);
    db.ensureLoaded();
    return db;
  }

  public BenchData data() {
    return data;
  }

  public List<String> shardUrls() {
    final List<String> urls = new ArrayList<>();
    for (int i = 0; i < SHARDS; i++) {
      urls.add(Models.h2Url(folder.resolve("s" + i)));
    }
    return urls;
  }

  public String unshardedUrl() {
    return Models.h2Url(folder.resolve("all"));
  }

  public Path shardSetModel() {
    return folder.resolve("shardset.json");
  }

  public Path unionAllModel() {
    return folder.resolve("union-all.json");
  }

  /** A connection through ShardSet over the shards. */
  public Connection connectShardSet() throws SQLException {
    return calcite(shardSetModel());
  }

  /** A connection through Calcite's JDBC adapter and the UNION ALL views. */
  public Connection connectUnionAll() throws SQLException {
    return calcite(unionAllModel());
  }

  private static Connection calcite(Path model) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("model", model.toString());
    return DriverManager.getConnection("jdbc:calcite:", info);
  }

  private void ensureLoaded() throws Exception {
    final Path marker = folder.resolve("loaded");
    if (Files.exists(marker)) {
      return;
    }
    Files.createDirectories(folder);
    Files.writeString(shardSetModel(), Models.shardSet(shardUrls(), 8));
    Files.writeString(unionAllModel(), Models.unionAll(shardUrls()));
    final List<String> urls = new ArrayList<>(shardUrls());
    urls.add(unshardedUrl());
    for (String url : urls) {
      try (Connection c = DriverManager.getConnection(url, "sa", "");
           Statement s = c.createStatement()) {
        s.execute("DROP ALL OBJECTS");
        for (String ddl : BenchData.DDL) {
          s.execute(ddl);
        }
      }
    }
    final long start = System.nanoTime();
    loadShards();
    loadUnsharded();
    System.out.printf("Loaded %,d orders into %s in %.1f s%n", data.orders(), folder,
        (System.nanoTime() - start) / 1e9);
    Files.writeString(marker, data.orders() + "\n");
  }

  private void loadShards() throws SQLException {
    try (Connection connection = connectShardSet()) {
      final ShardSchema schema = connection.unwrap(CalciteConnection.class).getRootSchema()
          .subSchemas().get(Models.SCHEMA).unwrap(ShardSchema.class);
      try (ShardedInserter products = ShardedInserter.open(schema.table("PRODUCTS"), BATCH)) {
        for (int id = 1; id <= BenchData.PRODUCTS; id++) {
          products.insert(BenchData.product(id));
        }
      }
      final ShardTable ordersTable = schema.table("ORDERS");
      try (ShardedInserter orders = ShardedInserter.open(ordersTable, BATCH);
           ShardedInserter lines = ShardedInserter.open(schema.table("ORDER_LINES"), BATCH)) {
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

  private void loadUnsharded() throws SQLException {
    try (Connection c = DriverManager.getConnection(unshardedUrl(), "sa", "")) {
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
