package io.shardset.bench;

import io.shardset.bench.shardingsphere.ShardingSphereSystem;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * One backend's copy of the benchmark data: the shards s0..s3, placed by ShardSet's own
 * routing, one unsharded database with every row, and the models of X and N over the shards.
 * {@link H2BenchDatabase} and {@link PostgresBenchDatabase} differ only in where the data lives
 * and how it is loaded; the systems and workloads see this interface.
 */
public interface BenchDatabase {
  /** The number of shards of the data set. */
  int SHARDS = 4;

  /** The backend's name as the report shows it, such as {@code H2}. */
  String backend();

  BenchData data();

  /** The name of the database holding every row, beside the shards' s0..s3. */
  String UNSHARDED = "all";

  /** The database {@code name}: s0..s3 for the shards, {@link #UNSHARDED} for the other. */
  JdbcEndpoint database(String name);

  /** The shards, s0 first. */
  default List<JdbcEndpoint> shards() {
    final List<JdbcEndpoint> shards = new ArrayList<>();
    for (int i = 0; i < SHARDS; i++) {
      shards.add(database("s" + i));
    }
    return shards;
  }

  /** The database holding every row. */
  default JdbcEndpoint unsharded() {
    return database(UNSHARDED);
  }

  /** The shards and the unsharded database. */
  default List<JdbcEndpoint> all() {
    final List<JdbcEndpoint> all = new ArrayList<>(shards());
    all.add(unsharded());
    return all;
  }

  /** The name the backend gives a table created with {@code name} unquoted. */
  default String physicalName(String name) {
    return name;
  }

  /**
   * A connection through ShardSet over the shards, by {@code jdbc:shardset:}: Calcite's driver
   * with ShardSet's plan cache, the way ShardSet's own sqlline connects.
   */
  default Connection connectShardSet() throws SQLException {
    return connectShardSet(List.of());
  }

  /**
   * {@link #connectShardSet()} with {@code extraTables} in the model, sharded like ORDERS; they
   * must exist on every shard.
   */
  default Connection connectShardSet(List<String> extraTables) throws SQLException {
    return model("jdbc:shardset:", Models.shardSetOver(shards(), 8, extraTables));
  }

  /** A connection through Calcite's JDBC adapter and the UNION ALL views. */
  default Connection connectUnionAll() throws SQLException {
    final Properties info = modelProperties(Models.unionAll(shards(), this::physicalName));
    // PostgreSQL's folded lower-case names are then found by the upper-case names of the SQL,
    // as ShardSet finds them; it changes nothing on H2, whose names are upper-case already.
    info.setProperty("caseSensitive", "false");
    return DriverManager.getConnection("jdbc:calcite:", info);
  }

  /**
   * ShardingSphere-JDBC (S) over the shards, which share one login; on PostgreSQL the shard
   * URLs make it spell the tables in lower case.
   */
  default ShardingSphereSystem openShardingSphere() throws SQLException {
    return openShardingSphere(List.of());
  }

  /**
   * {@link #openShardingSphere()} with {@code extraTables} configured, sharded like ORDERS; they
   * must exist on every shard.
   */
  default ShardingSphereSystem openShardingSphere(List<String> extraTables) throws SQLException {
    final List<JdbcEndpoint> shards = shards();
    final JdbcEndpoint login = shards.get(0);
    return ShardingSphereSystem.open(shards.stream().map(JdbcEndpoint::url).toList(),
        login.user(), login.password(), extraTables);
  }

  private static Connection model(String url, String model) throws SQLException {
    return DriverManager.getConnection(url, modelProperties(model));
  }

  private static Properties modelProperties(String model) {
    final Properties info = new Properties();
    info.setProperty("model", "inline:" + model);
    return info;
  }

  /**
   * The database of {@code data} on {@code backend} ({@code h2} or {@code postgres}), created
   * and loaded unless an earlier run left it complete; H2's files go under {@code h2Folder}.
   */
  static BenchDatabase open(String backend, java.nio.file.Path h2Folder, BenchData data)
      throws Exception {
    return switch (backend) {
    case "h2" -> H2BenchDatabase.open(h2Folder, data);
    case "postgres" -> PostgresBenchDatabase.open(data);
    default -> throw new IllegalArgumentException("unknown backend " + backend
          + "; expected h2 or postgres");
    };
  }
}
