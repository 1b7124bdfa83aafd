package io.shardset.cli;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's {@code /metrics}: Prometheus text behind the same authentication as queries
 * (refused without credentials, or with wrong ones), whose counters move with the statements
 * remote clients run.
 */
class ServerMetricsTest {
  private static final String MODEL = "\"chunks\": 60, \"tables\": ["
      + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]";
  private static final String DDL = "CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR(20))";

  @TempDir Path folder;
  private H2Shards shards;
  private ShardSetServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach void start() throws Exception {
    shards = H2Shards.create(folder, 3, MODEL, DDL);
    for (long k = 1; k <= 30; k++) {
      final int shard = shards.table("T").router().shardOf(List.of(k)).orElseThrow();
      shards.execute(shard, "INSERT INTO T VALUES (" + k + ", 'v" + k + "')");
    }
    final Path realm = folder.resolve("realm.properties");
    Files.writeString(realm, "alice: secret,users\nmallory: other,guests\n");
    server = ShardSetServer.start(ServerSettings.loopback(shards.modelFile(), 0,
        Driver.Serialization.PROTOBUF).withUsers(realm, List.of("users")));
  }

  @AfterEach void stop() throws SQLException {
    if (server != null) {
      server.close();
    }
    shards.close();
  }

  private HttpResponse<String> scrape(String user, String password) throws Exception {
    final HttpRequest.Builder request = HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/metrics")).GET();
    if (user != null) {
      request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A sample's value, 0 when the text has no such sample yet. */
  private static double sample(String text, String name, String labels) {
    final Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + labels)
        + "[^}]*\\} ([0-9.eE+-]+)$").matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  private void run(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl()
            + ";avatica_user=alice;avatica_password=secret");
         Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  @Test void metricsNeedAUserWhoMayConnect() throws Exception {
    assertEquals(401, scrape(null, null).statusCode());
    assertEquals(401, scrape("alice", "wrong").statusCode());
    assertEquals(403, scrape("mallory", "other").statusCode());
    final HttpResponse<String> ok = scrape("alice", "secret");
    assertEquals(200, ok.statusCode());
    assertTrue(ok.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
        ok.headers().toString());
  }

  @Test void countersMoveWithTheStatements() throws Exception {
    run("SELECT COUNT(*) FROM T");
    final String before = scrape("alice", "secret").body();
    run("SELECT V FROM T");
    run("SELECT V FROM T WHERE K = 7");
    final String after = scrape("alice", "secret").body();
    final String shardOf7 = "s" + shards.table("T").router().shardOf(List.of(7L)).orElseThrow();
    for (String shard : List.of("s0", "s1", "s2")) {
      final String labels = "outcome=\"ok\",shard=\"" + shard + "\"";
      assertEquals(shard.equals(shardOf7) ? 2 : 1,
          sample(after, "shardset_shard_statements_seconds_count", labels)
              - sample(before, "shardset_shard_statements_seconds_count", labels),
          shard + "\n" + after);
      assertEquals(Long.parseLong(shards.rows(Integer.parseInt(shard.substring(1)),
              "SELECT COUNT(*) FROM T").get(0)) + (shard.equals(shardOf7) ? 1 : 0),
          sample(after, "shardset_shard_rows_total", "shard=\"" + shard + "\"")
              - sample(before, "shardset_shard_rows_total", "shard=\"" + shard + "\""));
    }
    assertEquals(1, sample(after, "shardset_statements_total", "reach=\"all\"")
        - sample(before, "shardset_statements_total", "reach=\"all\""));
    assertEquals(1, sample(after, "shardset_statements_total", "reach=\"one\"")
        - sample(before, "shardset_statements_total", "reach=\"one\""));
    assertTrue(after.contains("hikaricp_connections_active{pool=\"shardset-s0\"}"), after);
    assertTrue(after.contains("shardset_pool_waiting{shard=\"s0\"} 0.0"), after);
    assertTrue(after.contains("shardset_plan_cache_total{result=\"hit\"}"), after);
    assertTrue(after.contains("shardset_shard_statements_seconds_bucket{"), after);
  }
}
