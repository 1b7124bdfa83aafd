package io.shardset.cli.server;

import org.apache.calcite.avatica.remote.Driver;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link ShardSetServer} serves a model: the model file, the address and port it listens
 * on, the wire serialization, and the realm file and roles of its users when it authenticates.
 *
 * @param model the model file
 * @param bind the host name or address to listen on
 * @param port the port, 0 for any free one
 * @param serialization what clients must name in their {@code serialization} property
 * @param users a Jetty realm properties file ({@code name: password,role...}), or null for no
 *     authentication, which only a loopback {@code bind} address allows
 * @param roles the roles of which a user needs one
 */
public record ServerSettings(Path model, String bind, int port,
    Driver.Serialization serialization, @Nullable Path users, List<String> roles) {
  /** The port Avatica servers listen on by default. */
  public static final int DEFAULT_PORT = 8765;

  public ServerSettings {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(serialization, "serialization");
    roles = List.copyOf(roles);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535: " + port);
    }
    if (users != null && roles.isEmpty()) {
      throw new IllegalArgumentException("authentication needs at least one role");
    }
  }

  /** Settings for a model on the loopback address without authentication. */
  public static ServerSettings loopback(Path model, int port,
      Driver.Serialization serialization) {
    return new ServerSettings(model, "127.0.0.1", port, serialization, null, List.of());
  }

  /** The same settings with authentication by the users of a realm file. */
  public ServerSettings withUsers(Path realm, List<String> userRoles) {
    return new ServerSettings(model, bind, port, serialization, realm, userRoles);
  }

  /** The same settings on another address. */
  public ServerSettings withBind(String address) {
    return new ServerSettings(model, address, port, serialization, users, roles);
  }
}
