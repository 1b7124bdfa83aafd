package io.shardset.calcite;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.remote.Driver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A ShardSet server on a free loopback port serving one model, for remote test runs. */
final class RemoteTestSupport implements AutoCloseable {
  private final Path modelFile;
  private final ShardSetServer server;

  private RemoteTestSupport(Path modelFile, ShardSetServer server) {
    this.modelFile = modelFile;
    this.server = server;
  }

  /** Writes the model to a file and serves it. */
  static RemoteTestSupport serve(String model) throws SQLException {
    return serve(model, Driver.Serialization.PROTOBUF);
  }

  /** Writes the model to a file and serves it in the given serialization. */
  static RemoteTestSupport serve(String model, Driver.Serialization serialization)
      throws SQLException {
    try {
      final Path file = Files.createTempFile("shardset-remote-", ".json");
      Files.writeString(file, model, StandardCharsets.UTF_8);
      return new RemoteTestSupport(file, ShardSetServer.start(
          ServerSettings.loopback(file, 0, serialization)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A new remote connection through the Avatica driver. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(url());
  }

  /** The server's {@code jdbc:avatica:remote:} URL. */
  String url() {
    return server.jdbcUrl();
  }

  @Override public void close() throws IOException {
    server.close();
    Files.deleteIfExists(modelFile);
  }
}
