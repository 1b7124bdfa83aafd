package io.shardset.cli.server;

import io.shardset.calcite.guard.ActivitySettings;
import io.shardset.calcite.guard.AuditLog;
import io.shardset.calcite.guard.ConnectionScatter;
import io.shardset.model.ScatterLimit;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The embedded connection a remote session runs on, whichever protocol the client speaks: its
 * properties (the server's, the client's allowed ones ({@link ClientProperties}), and the
 * caller's identity, address, statement visibility and scatter limit), read-only for a caller
 * who may not write.
 */
final class SessionProperties {
  private SessionProperties() {
  }

  static Properties of(Properties server, Properties client, Caller caller) {
    final Properties properties = ClientProperties.restrict(server, client);
    // Who runs the connection's statements, as SHARDSET.STATEMENTS shows them, and whose
    // statements it sees and may cancel.
    properties.setProperty("user", caller.user());
    // For the audit trail of the connection's writes, when the server writes one.
    properties.setProperty(AuditLog.ADDRESS, caller.address());
    properties.setProperty(ActivitySettings.STATEMENTS,
        caller.seesAllStatements() ? "all" : "own");
    final ScatterLimit scatter = caller.scatter();
    if (scatter != null) {
      properties.putAll(ConnectionScatter.properties(scatter));
    }
    return properties;
  }

  /**
   * A caller's connection, made read-only when the caller may not write; closed if that
   * fails.
   */
  static Connection forCaller(Connection connection, Caller caller) throws SQLException {
    if (!caller.mayWrite()) {
      try {
        connection.setReadOnly(true);
      } catch (SQLException | RuntimeException e) {
        connection.close();
        throw e;
      }
    }
    return connection;
  }
}
