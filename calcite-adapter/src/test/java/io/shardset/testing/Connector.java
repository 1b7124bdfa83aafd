package io.shardset.testing;

import io.shardset.calcite.jdbc.ShardSetDriver;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * One way a client reaches ShardSet on an inline model: Calcite's own {@code jdbc:calcite:}
 * URL, ShardSet's {@code jdbc:shardset:} driver (with its plan cache), or, from the server
 * module's tests, a remote connection through a ShardSet server.
 */
@FunctionalInterface
public interface Connector {
  /** {@code jdbc:calcite:} with the model as a connection property. */
  Connector CALCITE = model -> DriverManager.getConnection("jdbc:calcite:", info(model));

  /** {@code jdbc:shardset:}, whose driver keeps a plan cache. */
  Connector SHARDSET = model ->
      DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX, info(model));

  /** Opens a connection on a model given as JSON text. */
  Connection open(String model) throws SQLException;

  /** The connection properties that name an inline model. */
  static Properties info(String model) {
    final Properties info = new Properties();
    // In the properties, not the URL: URLs split on ';', which H2 URLs contain.
    info.setProperty("model", "inline:" + model);
    return info;
  }
}
