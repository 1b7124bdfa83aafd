package io.shardset.cli.server;

import org.apache.calcite.avatica.jdbc.JdbcMeta;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Avatica's JDBC-backed {@code Meta} for a ShardSet model that opens every remote connection
 * with the server's properties and only the client properties {@link ClientProperties} allows.
 */
final class ShardSetMeta extends JdbcMeta {
  private final Properties server;

  ShardSetMeta(String url, Properties server) throws SQLException {
    super(url, copy(server));
    this.server = copy(server);
  }

  private static Properties copy(Properties properties) {
    final Properties copy = new Properties();
    copy.putAll(properties);
    return copy;
  }

  @Override protected Connection createConnection(String url, Properties info)
      throws SQLException {
    return super.createConnection(url, ClientProperties.restrict(server, info));
  }
}
