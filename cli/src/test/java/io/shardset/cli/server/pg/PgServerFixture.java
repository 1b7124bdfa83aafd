package io.shardset.cli.server.pg;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.execution.ShardConnectionSettings;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.remote.Driver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Shards with tables, a ShardSet server over them listening for PostgreSQL clients, and the
 * embedded connection whose answers the clients' are compared with.
 */
final class PgServerFixture implements AutoCloseable {
  private final ShardFixture shards;
  private final Path folder;
  private final String model;
  private final ShardSetServer server;

  private PgServerFixture(ShardFixture shards, Path folder, String model,
      ShardSetServer server) {
    this.shards = shards;
    this.folder = folder;
    this.model = model;
    this.server = server;
  }

  /** Starts a server on {@code count} shards of a backend with the tables of {@code ddl}. */
  static PgServerFixture start(Backend backend, int count, String tables, String... ddl)
      throws SQLException, IOException {
    return start(backend, count, tables, UnaryOperator.identity(), ddl);
  }

  /** Starts a server as {@link #start(Backend, int, String, String...)}, its settings
   * changed by {@code settings}. */
  static PgServerFixture start(Backend backend, int count, String tables,
      UnaryOperator<ServerSettings> settings, String... ddl) throws SQLException, IOException {
    final ShardFixture shards = ShardFixture.create(backend, count, ddl);
    try {
      final Path folder = Files.createTempDirectory("pg-protocol");
      final String model = shards.model("\"tables\": [" + tables + "]");
      final Path file = folder.resolve("model.json");
      Files.writeString(file, model, StandardCharsets.UTF_8);
      final ShardSetServer server = ShardSetServer.start(settings.apply(
          ServerSettings.loopback(file, 0, Driver.Serialization.PROTOBUF).withPgPort(0)));
      return new PgServerFixture(shards, folder, model, server);
    } catch (SQLException | IOException | RuntimeException e) {
      shards.close();
      throw e;
    }
  }

  ShardFixture shards() {
    return shards;
  }

  Path folder() {
    return folder;
  }

  int port() {
    return server.pgPort();
  }

  ShardSetServer server() {
    return server;
  }

  /** pgJDBC's URL of the server, with {@code parameters} ({@code &name=value...}) added. */
  String url(String parameters) {
    return "jdbc:postgresql://127.0.0.1:" + port() + "/shardset?user=tester" + parameters;
  }

  /** A pgJDBC connection. */
  Connection pg(String parameters) throws SQLException {
    return DriverManager.getConnection(url(parameters));
  }

  /** An embedded ShardSet connection on the same model. */
  Connection embedded() throws SQLException {
    return Connector.SHARDSET.open(model);
  }

  /** The rows of a query run on each shard directly, all shards' together, sorted. */
  List<String> onShards(String sql) throws SQLException {
    final List<String> rows = new ArrayList<>();
    for (String name : shards.shards().names()) {
      final ShardConnectionSettings shard = shards.shards().settings(name);
      try (Connection c = DriverManager.getConnection(shard.jdbcUrl(), shard.user(),
          shard.password())) {
        rows.addAll(ShardFixture.rows(c, sql));
      }
    }
    return ShardFixture.sorted(rows);
  }

  @Override public void close() throws SQLException {
    try {
      server.close();
    } finally {
      shards.close();
    }
  }
}
