package io.shardset.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Empty in-memory H2 shards with the benchmark's tables: enough for planning, which depends
 * on the model's size and not on the data. Each database lives while its keeper connection
 * is open.
 */
final class TinyShards implements AutoCloseable {
  private final List<String> urls;
  private final List<Connection> keepers;

  private TinyShards(List<String> urls, List<Connection> keepers) {
    this.urls = List.copyOf(urls);
    this.keepers = List.copyOf(keepers);
  }

  /** Creates {@code count} databases named {@code prefix + count + "_" + i}. */
  static TinyShards create(String prefix, int count) throws SQLException {
    final List<String> urls = new ArrayList<>();
    final List<Connection> keepers = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        final String url = "jdbc:h2:mem:" + prefix + count + "_" + i;
        final Connection keeper = DriverManager.getConnection(url, "sa", "");
        keepers.add(keeper);
        try (Statement s = keeper.createStatement()) {
          for (String ddl : BenchData.DDL) {
            s.execute(ddl);
          }
        }
        urls.add(url);
      }
      return new TinyShards(urls, keepers);
    } catch (SQLException | RuntimeException e) {
      Connections.closeAll(keepers);
      throw e;
    }
  }

  List<String> urls() {
    return urls;
  }

  /** The databases as endpoints, for the models. */
  List<JdbcEndpoint> endpoints() {
    return urls.stream().map(Models::h2Endpoint).toList();
  }

  /** The connections that keep the databases alive; closing them drops the databases. */
  List<Connection> keepers() {
    return keepers;
  }

  @Override public void close() throws SQLException {
    Connections.closeAll(keepers);
  }
}
