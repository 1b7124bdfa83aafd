package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Python's psycopg2 and SQLAlchemy (Debian's packages, which {@code .ci/run} installs) against
 * the PostgreSQL port on PostgreSQL shards: parameterized queries, a committed and a
 * rolled-back write, a named cursor read in batches (DECLARE and FETCH), an error's SQLState,
 * and the reflection Superset runs on connect ({@code get_table_names}, {@code get_columns},
 * {@code get_pk_constraint}): every step's answer compared with the same client's against one
 * PostgreSQL database holding the same rows, and with the embedded driver's and the shards'.
 */
@LongTest
class PgPythonTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static PgSideBySide both;
  private static PgServerFixture server;
  private static PgReference reference;

  @BeforeAll static void start() throws Exception {
    both = PgSideBySide.start("pgpython", Backend.POSTGRES, 3, 60);
    server = both.server();
    reference = both.reference();
  }

  @AfterAll static void stop() throws SQLException {
    both.close();
  }

  /** The client's steps, by name, against a server. */
  private static Map<String, JsonNode> run(int port, String user, String database)
      throws IOException, InterruptedException {
    final Process process = new ProcessBuilder("/usr/bin/python3",
        Path.of("src", "test", "python", "client.py").toString(), Integer.toString(port),
        user, database).redirectErrorStream(true).start();
    final String out = new String(process.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    assertTrue(process.waitFor(2, TimeUnit.MINUTES), out);
    assertEquals(0, process.exitValue(), out);
    final Map<String, JsonNode> steps = new LinkedHashMap<>();
    for (String line : out.strip().split("\n")) {
      final JsonNode step = JSON.readTree(line);
      steps.put(step.get("step").asText(), step.get("value"));
    }
    return steps;
  }

  /** Every step answers as on PostgreSQL, and the rows are the embedded driver's. */
  @Test void psycopg2AndSqlAlchemyAnswerAsOnPostgresql() throws Exception {
    final Map<String, JsonNode> steps = run(server.port(), "tester", "shardset");
    assertEquals(List.of("rows", "named", "error", "tables", "columns", "pk"),
        List.copyOf(steps.keySet()));
    assertEquals(run(5432, PostgresServer.USER, reference.database()), steps);
    final List<String> rows = new ArrayList<>();
    for (JsonNode row : steps.get("rows")) {
      rows.add(row.get(0).asText() + ", " + row.get(1).asText());
    }
    final List<String> named = new ArrayList<>();
    steps.get("named").forEach(id -> named.add(id.asText()));
    try (Connection c = server.embedded()) {
      assertEquals(ShardFixture.rows(c, "SELECT ID, NAME FROM ITEMS WHERE GRP = 3 ORDER BY ID"),
          rows);
      assertEquals(ShardFixture.rows(c, "SELECT ID FROM ITEMS ORDER BY ID"), named);
    }
    assertEquals("\"42P01\"", steps.get("error").toString());
    assertEquals("[\"items\"]", steps.get("tables").toString());
    assertEquals("{\"constrained_columns\":[\"id\"],\"name\":\"items_pkey\"}",
        steps.get("pk").toString());
    assertEquals(List.of("600, from python, 12.5"), // canonical: trailing zeros dropped
        server.onShards("SELECT ID, NAME, PRICE FROM ITEMS WHERE ID = 600"));
  }
}
