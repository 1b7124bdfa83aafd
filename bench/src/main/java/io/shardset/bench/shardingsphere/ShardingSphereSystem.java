package io.shardset.bench.shardingsphere;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.apache.shardingsphere.infra.autogen.version.ShardingSphereVersion;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * System S: a ShardingSphere-JDBC data source over the shards, configured by
 * {@link ShardingSphereYaml}. Works over any shards whose JDBC driver is on the class path
 * (H2 and PostgreSQL in the benchmark); ShardingSphere picks its SQL dialect from the URLs.
 */
public final class ShardingSphereSystem implements AutoCloseable {
  /** Connections per shard pool, as in ShardSet's benchmark model. */
  public static final int POOL_SIZE = 8;

  private final DataSource dataSource;

  private ShardingSphereSystem(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /** Opens ShardingSphere over these shard URLs, shard i being data source s{i}. */
  public static ShardingSphereSystem open(List<String> shardUrls, String user, String password)
      throws SQLException {
    return open(shardUrls, user, password, List.of());
  }

  /**
   * Opens ShardingSphere over these shard URLs with {@code extraTables} sharded like ORDERS
   * (see {@link ShardingSphereYaml#of(List, String, String, int, List)}).
   */
  public static ShardingSphereSystem open(List<String> shardUrls, String user, String password,
      List<String> extraTables) throws SQLException {
    return open(ShardingSphereYaml.of(shardUrls, user, password, POOL_SIZE, extraTables));
  }

  /** Opens ShardingSphere with a configuration of {@link ShardingSphereYaml}. */
  public static ShardingSphereSystem open(String yaml) throws SQLException {
    try {
      return new ShardingSphereSystem(YamlShardingSphereDataSourceFactory.createDataSource(
          yaml.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new SQLException("cannot read the ShardingSphere configuration", e);
    }
  }

  /** The version of ShardingSphere on the class path. */
  public static String version() {
    return ShardingSphereVersion.VERSION;
  }

  /** The logical data source: every connection sees ORDERS, ORDER_LINES and PRODUCTS. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** A new logical connection. */
  public Connection connect() throws SQLException {
    return dataSource.getConnection();
  }

  /** Closes the shard pools. */
  @Override public void close() throws Exception {
    if (dataSource instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }
}
