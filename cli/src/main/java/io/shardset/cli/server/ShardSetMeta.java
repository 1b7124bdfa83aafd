package io.shardset.cli.server;

import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.jdbc.JdbcMeta;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Avatica's JDBC-backed {@code Meta} for a ShardSet model that opens every remote connection
 * with the server's properties and only the client properties {@link ClientProperties} allows,
 * and logs each statement a client prepares or runs at debug level.
 */
final class ShardSetMeta extends JdbcMeta {
  private static final Logger LOG = LoggerFactory.getLogger(ShardSetMeta.class);

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

  @Override public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    LOG.debug("connection {} prepares: {}", ch.id, sql);
    return super.prepare(ch, sql, maxRowCount);
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    LOG.debug("connection {} runs: {}", h.connectionId, sql);
    return super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
  }
}
