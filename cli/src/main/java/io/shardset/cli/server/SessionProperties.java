package io.shardset.cli.server;

import io.shardset.calcite.guard.ActivitySettings;
import io.shardset.calcite.guard.AuditLog;
import io.shardset.calcite.guard.ConnectionScatter;
import io.shardset.model.ScatterLimit;

import java.util.Properties;

/**
 * The properties of the embedded connection a remote session runs on, whichever protocol the
 * client speaks: the server's, the client's allowed ones ({@link ClientProperties}), and the
 * caller's identity, address, statement visibility and scatter limit.
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
}
