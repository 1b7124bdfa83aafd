package io.shardset.cli;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The functions jOOQ's PostgreSQL and H2 dialects emit (CONCAT, LEFT, RIGHT, SUBSTR, LENGTH,
 * ILIKE) and ordinary standard ones, sent by a remote client to a server with the default
 * function libraries, give the rows the same query gives on an unsharded copy of the data,
 * whether the shards are H2, PostgreSQL or a mix with MariaDB, whose functions of those names
 * mean other things (CONCAT is NULL with any NULL argument, LENGTH counts bytes, there is no
 * ILIKE).
 */
class RemoteFunctionsTest {
  private static final String DDL = "CREATE TABLE P (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(20) NOT NULL, CITY VARCHAR(20), BORN DATE NOT NULL)";
  private static final String TABLES = "\"tables\": [{\"name\": \"P\","
      + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";

  /** Queries whose text both ShardSet and the unsharded copy (H2 or PostgreSQL) run. */
  private static final List<String> QUERIES = List.of(
      "SELECT ID, CONCAT(NAME, CITY) FROM P ORDER BY ID",
      "SELECT ID, CONCAT(NAME, '-', CITY, '/', ID) FROM P ORDER BY ID",
      "SELECT ID, LEFT(NAME, 3), RIGHT(NAME, 2), LEFT(CITY, 1) FROM P ORDER BY ID",
      "SELECT ID, SUBSTR(NAME, 2), SUBSTR(NAME, 2, 3), SUBSTR(CITY, 3, 1) FROM P ORDER BY ID",
      "SELECT ID, LENGTH(NAME), LENGTH(CITY), CHAR_LENGTH(NAME) FROM P ORDER BY ID",
      "SELECT ID FROM P WHERE NAME ILIKE 'a%' ORDER BY ID",
      "SELECT ID FROM P WHERE CITY ILIKE '%O%' OR NAME NOT ILIKE '%E%' ORDER BY ID",
      "SELECT ID, SUBSTRING(NAME FROM 2 FOR 2), COALESCE(CITY, 'none'), NAME || '!'"
          + " FROM P ORDER BY ID",
      "SELECT ID, NAME || CITY, UPPER(NAME), LOWER(CITY) FROM P ORDER BY ID",
      "SELECT ID, EXTRACT(YEAR FROM BORN), EXTRACT(MONTH FROM BORN) FROM P"
          + " WHERE BORN >= DATE '1990-01-01' AND BORN < CURRENT_DATE ORDER BY ID",
      "SELECT LEFT(NAME, 1) AS I, COUNT(*) AS N FROM P GROUP BY LEFT(NAME, 1) ORDER BY I",
      "SELECT ID FROM P WHERE LENGTH(NAME) > 4 AND CONCAT(CITY, 'x') = 'Oslox' ORDER BY ID",
      "SELECT ID FROM P WHERE LEFT(NAME, 1) = 'A' AND SUBSTR(NAME, 2, 1) <> 'n' ORDER BY ID");

  private static final String[] NAMES = {"anna", "Alice", "bob", "Eve", "ALFRED", "Zoe",
      "andré", "Émile", "Chen"};
  private static final String[] CITIES = {"Oslo", null, "Lyon", "oporto", "Bern"};

  @TempDir Path folder;

  @ParameterizedTest
  @EnumSource(value = Backend.class, names = {"H2", "POSTGRES", "MIXED_WITH_MARIADB"})
  void functionsGiveTheRowsOfAnUnshardedCopy(Backend backend) throws Exception {
    try (ShardFixture fixture = ShardFixture.create(backend, 4, DDL)) {
      final String model = fixture.model(TABLES);
      try (Connection loading = ShardFixture.connect(model)) {
        fixture.load(loading, "P", rows());
      }
      final Path modelFile = folder.resolve("model.json");
      Files.writeString(modelFile, model, StandardCharsets.UTF_8);
      try (ShardSetServer server = ShardSetServer.start(
               ServerSettings.loopback(modelFile, 0, Driver.Serialization.PROTOBUF));
           Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
        for (String sql : QUERIES) {
          final List<String> expected = fixture.oracleRows(sql);
          assertTrue(expected.size() > 0, "the copy finds no rows, so the check would be weak: "
              + sql);
          assertEquals(expected, ShardFixture.rows(remote, sql), backend + ": " + sql);
        }
        // ILIKE goes to shards that all have it, and stays above a mix with MariaDB.
        final String plan = String.join("\n", ShardFixture.rows(remote,
            "EXPLAIN PLAN FOR SELECT ID FROM P WHERE NAME ILIKE 'a%'"));
        assertEquals(backend != Backend.MIXED_WITH_MARIADB, plan.contains(" ILIKE 'a%'"),
            plan);
      }
    }
  }

  /** A client's own {@code fun} property is dropped: the server's libraries stay. */
  @Test void clientsCannotChooseOtherLibraries() throws Exception {
    try (ShardFixture fixture = ShardFixture.create(Backend.H2, 2, DDL)) {
      final Path modelFile = folder.resolve("model.json");
      Files.writeString(modelFile, fixture.model(TABLES), StandardCharsets.UTF_8);
      try (ShardSetServer server = ShardSetServer.start(
               ServerSettings.loopback(modelFile, 0, Driver.Serialization.PROTOBUF));
           Connection remote = DriverManager.getConnection(server.jdbcUrl() + ";fun=mysql")) {
        assertEquals(List.of("ac"),
            ShardFixture.rows(remote, "SELECT CONCAT('a', CAST(NULL AS VARCHAR), 'c')"));
      }
      try (ShardSetServer server = ShardSetServer.start(
               ServerSettings.loopback(modelFile, 0, Driver.Serialization.PROTOBUF)
                   .withFunctions("standard,mysql"));
           Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
        assertEquals(List.of("NULL"),
            ShardFixture.rows(remote, "SELECT CONCAT('a', CAST(NULL AS VARCHAR), 'c')"));
      }
    }
  }

  /** {@code shardset server --fun} with a library Calcite does not know does not start. */
  @Test void anUnknownLibraryIsRefusedAtStart() throws Exception {
    final Path modelFile = folder.resolve("model.json");
    Files.writeString(modelFile, "{}", StandardCharsets.UTF_8);
    final StringWriter err = new StringWriter();
    final CommandLine cli = ShardSetCli.commandLine();
    cli.setErr(new PrintWriter(err, true));
    assertEquals(1, cli.execute("server", "--model", modelFile.toString(), "--port", "0",
        "--fun", "standard,postgres"));
    assertTrue(err.toString().startsWith("server failed to start: unknown library 'postgres'"
        + " in the function libraries 'standard,postgres'; Calcite knows standard,"),
        err.toString());
  }

  private static List<Object[]> rows() {
    final List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 36; i++) {
      rows.add(new Object[] {(long) i + 1, NAMES[i % NAMES.length] + (i < 9 ? "" : i),
          CITIES[i % CITIES.length], LocalDate.of(1980 + i, 1 + i % 12, 1 + i % 28)});
    }
    return rows;
  }
}
