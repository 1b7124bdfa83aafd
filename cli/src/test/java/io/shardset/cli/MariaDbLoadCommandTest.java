package io.shardset.cli;

import io.shardset.testing.MariaDbServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs {@code shardset load} on MariaDB shards. This module's tests see MariaDB's driver only
 * through its runtime dependencies, the classpath the launchers in sqlline/ are given: if the
 * driver were a test dependency of the adapter again, this test would fail.
 */
class MariaDbLoadCommandTest {
  private static final String DRIVER = "org.mariadb.jdbc.Driver";

  @TempDir Path folder;
  private List<String> databases = List.of();

  @AfterEach void dropDatabases() throws SQLException {
    if (!databases.isEmpty()) {
      MariaDbServer.drop(databases);
    }
  }

  @Test void loadsRowsIntoMariaDbShards() throws Exception {
    // Before looking for the server: without the driver, the server would look unreachable
    // and the test would be skipped instead of failing.
    Class.forName(DRIVER);
    MariaDbServer.require();
    databases = MariaDbServer.createDatabases("cliload", 2);
    final StringJoiner shards = new StringJoiner(", ", "[", "]");
    for (int i = 0; i < databases.size(); i++) {
      execute(i, "CREATE TABLE TICKETS (ID BIGINT PRIMARY KEY, REGION VARCHAR(8) NOT NULL,"
          + " N INTEGER NOT NULL)");
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \""
          + MariaDbServer.url(databases.get(i)) + "\", \"jdbcUser\": \"" + MariaDbServer.USER
          + "\", \"jdbcPassword\": \"\"}");
    }
    final Path model = folder.resolve("model.json");
    Files.writeString(model, "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{"
        + "\"name\": \"S\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {\"shards\": "
        + shards + ", \"tables\": [{\"name\": \"TICKETS\", \"method\": \"list\","
        + " \"shardKey\": [\"REGION\"], \"lists\": [{\"shard\": \"s0\", \"values\": [\"EU\"]},"
        + " {\"shard\": \"s1\", \"values\": [\"US\"]}]}]}}]}", StandardCharsets.UTF_8);
    final Path csv = folder.resolve("tickets.csv");
    Files.write(csv, List.of("ID,REGION,N", "1,EU,10", "2,US,20", "3,EU,30"),
        StandardCharsets.UTF_8);

    final StringWriter err = new StringWriter();
    final CommandLine cli = ShardSetCli.commandLine();
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));
    assertEquals(0, cli.execute("load", "--model", model.toString(), "--table", "TICKETS",
        csv.toString()), err::toString);
    assertEquals(List.of("1|EU|10", "3|EU|30"), rows(0));
    assertEquals(List.of("2|US|20"), rows(1));
  }

  private Connection connect(int shard) throws SQLException {
    return DriverManager.getConnection(MariaDbServer.url(databases.get(shard)),
        MariaDbServer.USER, "");
  }

  private void execute(int shard, String sql) throws SQLException {
    try (Connection c = connect(shard); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private List<String> rows(int shard) throws SQLException {
    try (Connection c = connect(shard); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT * FROM TICKETS ORDER BY ID")) {
      return H2Shards.rows(rs);
    }
  }
}
