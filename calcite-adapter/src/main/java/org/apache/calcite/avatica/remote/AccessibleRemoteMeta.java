package org.apache.calcite.avatica.remote;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;

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

  /**
   * Sends a change of a connection's properties to the server now, where Avatica's client
   * keeps it until the next request: a change the server refuses then fails the call that
   * made it, and leaves the properties the connection had (Avatica's would send the refused
   * change again with every later request, each of which would fail).
   */
  protected ConnectionProperties syncNow(ConnectionHandle ch, ConnectionProperties change) {
    return connection.invokeWithRetries(() -> {
      final ConnectionPropertiesImpl known = propsMap.get(ch.id);
      final ConnectionPropertiesImpl attempt = new ConnectionPropertiesImpl();
      if (known != null) {
        attempt.merge(known);
      }
      attempt.merge(change);
      final Service.ConnectionSyncResponse response =
          service.apply(new Service.ConnectionSyncRequest(ch.id, attempt));
      propsMap.put(ch.id, (ConnectionPropertiesImpl) response.connProps);
      return response.connProps;
    });
  }
}
