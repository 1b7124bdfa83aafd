package io.shardset.cli.server;

import io.shardset.calcite.guard.AuditLog;
import io.shardset.cli.server.pg.PgSessionOpener;
import io.shardset.cli.server.pg.PgUser;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * Opens the connections of the server's PostgreSQL clients as {@link ShardSetMeta} opens its
 * Avatica clients': the server's properties, the user's identity, write access, scatter limit
 * and statement visibility (see {@link SessionProperties}), read-only for a user who may not
 * write, each opening and closing in the audit trail.
 */
final class PgSessions implements PgSessionOpener {
  private final String url;
  private final Properties server;
  private final WriteAccess access;
  private final List<RoleScatter> roleScatter;
  private final List<String> operatorRoles;
  private final AuditLog audit;

  PgSessions(String url, Properties server, WriteAccess access, List<RoleScatter> roleScatter,
      List<String> operatorRoles, AuditLog audit) {
    this.url = url;
    this.server = new Properties();
    this.server.putAll(server);
    this.access = access;
    this.roleScatter = List.copyOf(roleScatter);
    this.operatorRoles = List.copyOf(operatorRoles);
    this.audit = audit;
  }

  @Override public Connection open(String session, PgUser user, String address,
      Properties protocol) throws SQLException {
    final Caller caller = Caller.of(user.name(), address, user.roles()::contains, access,
        roleScatter, operatorRoles);
    final Properties properties = SessionProperties.of(server, new Properties(), caller);
    properties.putAll(protocol);
    final Connection connection = SessionProperties.forCaller(
        DriverManager.getConnection(url, properties), caller);
    audit.opened(session, user.name(), address);
    return connection;
  }

  @Override public void closed(String session, PgUser user, String address, String how) {
    audit.closed(session, user.name(), address, how);
  }
}
