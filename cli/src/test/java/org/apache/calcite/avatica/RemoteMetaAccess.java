package org.apache.calcite.avatica;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Reaches the {@code Meta} of a remote Avatica connection, to send the server requests no JDBC
 * call sends: the statement or connection of another client, as a hostile client names them.
 * Lives in Avatica's package only to read that protected field.
 */
public final class RemoteMetaAccess {
  private RemoteMetaAccess() {
  }

  /** The connection's {@code Meta}, which sends each call to the server as it is. */
  public static Meta meta(Connection connection) throws SQLException {
    return connection.unwrap(AvaticaConnection.class).meta;
  }

  /** The connection's id on the server. */
  public static String id(Connection connection) throws SQLException {
    return connection.unwrap(AvaticaConnection.class).id;
  }
}
