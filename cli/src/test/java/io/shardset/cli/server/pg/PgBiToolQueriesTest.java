package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metadata queries Metabase and Grafana send on connect, recorded from their drivers'
 * source (test resources {@code bi/}), through the PostgreSQL port on PostgreSQL shards and on
 * one PostgreSQL database with the same table: Metabase's through pgJDBC's extended protocol
 * with its parameters, as it sends them, Grafana's in the simple query protocol. Each answer
 * about the table is PostgreSQL's; ShardSet's own schema of statement tables ({@code
 * shardset}) is the one thing PostgreSQL does not have, and is left out of the comparison.
 */
class PgBiToolQueriesTest {
  private static PgSideBySide both;
  private static PgServerFixture server;
  private static PgReference reference;

  @BeforeAll static void start() throws Exception {
    both = PgSideBySide.start("pgbi", Backend.POSTGRES, 2, 20);
    server = both.server();
    reference = both.reference();
  }

  @AfterAll static void stop() throws SQLException {
    both.close();
  }

  private static String query(String name) throws IOException {
    try (InputStream in = Objects.requireNonNull(
        PgBiToolQueriesTest.class.getResourceAsStream("bi/" + name + ".sql"), name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** A query's rows, each value as text, without rows of ShardSet's own schema. */
  private static List<List<String>> rows(Connection c, String name, Object... parameters)
      throws Exception {
    try (PreparedStatement statement = c.prepareStatement(query(name))) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      return rows(statement.executeQuery());
    }
  }

  private static List<List<String>> rows(ResultSet rs) throws SQLException {
    final List<List<String>> rows = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        final List<String> row = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.add(rs.getString(i));
        }
        if (!row.contains("shardset") && row.stream()
            .noneMatch(v -> v != null && v.startsWith("shardset."))) {
          rows.add(row);
        }
      }
    }
    return rows;
  }

  private static Connection shardSet(String parameters) throws SQLException {
    return server.pg(parameters);
  }

  private static Connection postgresql(String parameters) throws SQLException {
    return DriverManager.getConnection(PostgresServer.url(reference.database()) + "?user="
        + PostgresServer.USER + parameters);
  }

  @Test void metabasesSyncAnswersAsPostgresql() throws Exception {
    try (Connection x = shardSet(""); Connection pg = postgresql("")) {
      for (Connection c : List.of(x, pg)) {
        assertTrue(c.isValid(5)); // an empty statement on every pool checkout
        assertEquals(List.of(List.of("1")), rows(c, "metabase-01-can-connect"));
        try (Statement s = c.createStatement()) {
          s.execute(query("metabase-03-isolation"));
        }
        assertFalse(rows(c, "metabase-08-timezone").isEmpty());
      }
      assertEquals(rows(pg, "metabase-05-table-privileges"),
          rows(x, "metabase-05-table-privileges"));
      assertEquals(List.of(List.of("public", "items", "TABLE")),
          withoutColumns(rows(x, "metabase-06-tables", 0, "^pg_", "information_schema",
              "public"), 3, 4));
      assertEquals(withoutColumns(rows(pg, "metabase-06-tables", 0, "^pg_",
              "information_schema", "public"), 3, 4),
          withoutColumns(rows(x, "metabase-06-tables", 0, "^pg_", "information_schema",
              "public"), 3, 4));
      assertEquals(rows(pg, "metabase-09-enum-types"), rows(x, "metabase-09-enum-types"));
      final List<List<String>> fields = rows(x, "metabase-10-fields", "public", "public");
      assertEquals(10, fields.size());
      assertEquals(rows(pg, "metabase-10-fields", "public", "public"), fields);
      assertEquals(rows(pg, "metabase-15-foreign-keys", "public"),
          rows(x, "metabase-15-foreign-keys", "public"));
    }
  }

  /** The rows without the columns at these positions (from 0): values only one side has. */
  private static List<List<String>> withoutColumns(List<List<String>> rows, int... columns) {
    final List<List<String>> kept = new ArrayList<>();
    for (List<String> row : rows) {
      final List<String> copy = new ArrayList<>(row);
      for (int i = columns.length - 1; i >= 0; i--) {
        copy.remove(columns[i]);
      }
      kept.add(copy);
    }
    return kept;
  }

  @ParameterizedTest
  @ValueSource(strings = {"grafana-04-timescaledb", "grafana-05-schemas", "grafana-06-tables",
      "grafana-07-tables-of-schema", "grafana-08-columns"})
  void grafanasQueriesAnswerAsPostgresql(String name) throws Exception {
    try (Connection x = shardSet("&preferQueryMode=simple");
        Connection pg = postgresql("&preferQueryMode=simple")) {
      assertEquals(rows(pg, name), rows(x, name));
    }
  }

  @Test void grafanasHealthChecksAndVersion() throws Exception {
    try (Connection x = shardSet("&preferQueryMode=simple"); Statement s = x.createStatement()) {
      assertFalse(s.execute(query("grafana-01-ping-pgx")));
      assertFalse(s.execute(query("grafana-02-ping-lib-pq")));
      // Grafana turns on what PostgreSQL 9.6 and later have from 906 on.
      assertEquals(List.of(List.of("1500")), rows(s.executeQuery(query("grafana-03-version"))));
    }
  }
}
