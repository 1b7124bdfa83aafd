package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;
import io.shardset.testing.ShardFixture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * node-postgres (npm {@code pg}, installed from the npm registry into the build's folder)
 * against the PostgreSQL port on PostgreSQL shards: plain queries and parameterized ones
 * (the extended protocol with {@code $1}), a write, a transaction rolled back, and an error's
 * SQLState, the rows compared with the embedded driver's.
 */
@LongTest
class PgNodePostgresTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static PgServerFixture server;
  private static Path client;

  @BeforeAll static void start() throws Exception {
    server = PgServerFixture.start(Backend.POSTGRES, 3, PgJdbcTest.TABLES, PgJdbcTest.DDL);
    try (Connection c = server.embedded()) {
      PgJdbcTest.load(c, 60);
    }
    client = Path.of("target", "node-postgres").toAbsolutePath();
    Files.createDirectories(client);
    for (String file : List.of("package.json", "client.mjs")) {
      Files.copy(Path.of("src", "test", "node", file), client.resolve(file),
          StandardCopyOption.REPLACE_EXISTING);
    }
    run(List.of("npm", "install", "--no-audit", "--no-fund", "--loglevel=error"));
  }

  @AfterAll static void stop() throws SQLException {
    server.close();
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    final Process process = new ProcessBuilder(command).directory(client.toFile())
        .redirectErrorStream(true).start();
    final String out = new String(process.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    assertTrue(process.waitFor(5, TimeUnit.MINUTES), out);
    assertEquals(0, process.exitValue(), command + ": " + out);
    return out;
  }

  @Test void queriesParametersWritesTransactionsAndErrors() throws Exception {
    final List<Map<String, Object>> statements = List.of(
        Map.of("sql", "SELECT id FROM items WHERE grp = 3 ORDER BY id"),
        Map.of("sql", "SELECT id, name FROM items WHERE id = $1 OR name = $2 ORDER BY id",
            "values", List.of(7, "item 8")),
        Map.of("sql", "INSERT INTO items (id, grp, name) VALUES ($1, $2, $3)",
            "values", List.of(500, 1, "from node")),
        Map.of("sql", "BEGIN"),
        Map.of("sql", "DELETE FROM items WHERE id = 500"),
        Map.of("sql", "ROLLBACK"),
        Map.of("sql", "SELECT name FROM items WHERE id = 500"),
        Map.of("sql", "SELECT * FROM nope"));
    final String out = run(List.of("node", "client.mjs", Integer.toString(server.port()),
        JSON.writeValueAsString(statements)));
    final List<JsonNode> answers = new ArrayList<>();
    for (String line : out.strip().split("\n")) {
      answers.add(JSON.readTree(line));
    }
    assertEquals(statements.size(), answers.size(), out);
    try (Connection c = server.embedded()) {
      final List<String> ids = new ArrayList<>();
      for (JsonNode row : answers.get(0).get("rows")) {
        ids.add(row.get(0).asText());
      }
      assertEquals(ShardFixture.rows(c, "SELECT ID FROM ITEMS WHERE GRP = 3 ORDER BY ID"),
          ids);
    }
    assertEquals("[[\"7\",\"item 7\"],[\"8\",\"item 8\"]]",
        answers.get(1).get("rows").toString());
    assertEquals(1, answers.get(2).get("count").asInt());
    assertEquals("[[\"from node\"]]", answers.get(6).get("rows").toString());
    assertEquals("42P01", answers.get(7).get("error").asText());
    assertEquals(List.of("500, from node"),
        server.onShards("SELECT ID, NAME FROM ITEMS WHERE ID = 500"));
  }
}
