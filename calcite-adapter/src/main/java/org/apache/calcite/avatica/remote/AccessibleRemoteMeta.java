package org.apache.calcite.avatica.remote;

import org.apache.calcite.avatica.AvaticaConnection;

/**
 * {@link RemoteMeta} for subclasses outside Avatica's package: its class and constructor are
 * not public, and a remote driver that changes how statements run must extend it, as it sends
 * every request of a connection. Lives in Avatica's package only to name that class.
 */
public abstract class AccessibleRemoteMeta extends RemoteMeta {
  /**
   * Creates the metadata of a remote connection.
   *
   * @param service the connection's service, which sends its requests
   */
  protected AccessibleRemoteMeta(AvaticaConnection connection, Service service) {
    super(connection, service);
  }
}
