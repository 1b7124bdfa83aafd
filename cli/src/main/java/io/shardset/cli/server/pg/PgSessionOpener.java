package io.shardset.cli.server.pg;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens the embedded connection a PostgreSQL client's session runs on, as the server opens
 * its Avatica clients' (the same users, write rules, scatter limits, statement tracking and
 * audit trail), and hears when it closes.
 */
public interface PgSessionOpener {
  /**
   * Opens a session's connection.
   *
   * @param session the session's name in logs and the audit trail
   * @param user who the session runs as
   * @param address the client's address
   * @param protocol the properties PostgreSQL's SQL needs (parser, names in lower case),
   *     which the server sets, never the client
   */
  Connection open(String session, PgUser user, String address, Properties protocol)
      throws SQLException;

  /** Hears that a session's connection closed, and how. */
  void closed(String session, PgUser user, String address, String how);
}
