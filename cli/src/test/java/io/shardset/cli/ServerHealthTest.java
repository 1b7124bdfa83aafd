package io.shardset.cli;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.remote.Driver;

import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The server's {@code /health}: each shard up or down, names only, without credentials; a
 * shard is taken down by stopping the H2 TCP server it lives in, which breaks its pooled
 * connections and refuses new ones.
 */
class ServerHealthTest {
  private static final AtomicInteger GROUPS = new AtomicInteger();

  @TempDir Path folder;
  private Server first;
  private Server second;
  private ShardSetServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  /** s0 and s1 in the first TCP server, s2 in the second. */
  @BeforeEach void start() throws Exception {
    first = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
    second = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
    final String group = "health" + GROUPS.incrementAndGet();
    final StringJoiner shards = new StringJoiner(",\n");
    for (int i = 0; i < 3; i++) {
      final String url = "jdbc:h2:tcp://127.0.0.1:" + (i < 2 ? first : second).getPort()
          + "/mem:" + group + "_s" + i + ";DB_CLOSE_DELAY=-1";
      try (Connection c = DriverManager.getConnection(url, "sa", "");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR(20))");
      }
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + url + "\", \"jdbcUser\": \"sa\","
          + " \"jdbcPassword\": \"\", \"connectTimeout\": 500, \"acquireTimeout\": 500}");
    }
    final Path model = folder.resolve("model.json");
    Files.writeString(model, "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{"
        + "\"name\": \"S\", \"type\": \"custom\", \"factory\":"
        + " \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {\"shards\": [" + shards
        + "], \"tables\": [{\"name\": \"T\", \"method\": \"consistent-hash\","
        + " \"shardKey\": [\"K\"]}]}}]}");
    final Path realm = folder.resolve("realm.properties");
    Files.writeString(realm, "alice: secret,users\n");
    server = ShardSetServer.start(ServerSettings.loopback(model, 0,
        Driver.Serialization.PROTOBUF).withUsers(realm, List.of("users")));
  }

  @AfterEach void stop() throws SQLException {
    if (server != null) {
      server.close();
    }
    first.stop();
    second.stop();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test void everyShardUpThenOneDownThenAll() throws Exception {
    HttpResponse<String> health = get("/health");
    assertEquals(200, health.statusCode());
    assertEquals("{\"status\": \"up\", \"shards\": {\"s0\": \"up\", \"s1\": \"up\","
        + " \"s2\": \"up\"}}\n", health.body());
    assertEquals("application/json;charset=utf-8",
        health.headers().firstValue("Content-Type").orElse(""));
    // The rest of the server still needs credentials, and the open path takes nothing but a
    // GET: an Avatica request posted to it would run statements without a user.
    assertEquals(401, get("/metrics").statusCode());
    for (String path : List.of("/health", "/health;x=1")) {
      final HttpResponse<String> post = http.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + server.port() + path))
          .POST(HttpRequest.BodyPublishers.ofString("{\"request\": \"openConnection\","
              + " \"connectionId\": \"x\"}")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(405, post.statusCode(), path + ": " + post.body());
    }

    second.stop();
    health = get("/health");
    assertEquals(200, health.statusCode());
    assertEquals("{\"status\": \"degraded\", \"shards\": {\"s0\": \"up\", \"s1\": \"up\","
        + " \"s2\": \"down\"}}\n", health.body());

    first.stop();
    health = get("/health");
    assertEquals(503, health.statusCode());
    assertEquals("{\"status\": \"down\", \"shards\": {\"s0\": \"down\", \"s1\": \"down\","
        + " \"s2\": \"down\"}}\n", health.body());
  }
}
