package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pgbench through the PostgreSQL port, on four PostgreSQL shards: a script of a routed point
 * select and a routed update per transaction, 8 clients, in the extended protocol, with
 * prepared statements and in simple queries. Every transaction commits, and the shards hold
 * exactly the changes the transactions made: each update adds 1 to a row's QTY, so the sum of
 * QTY over the shards grows by the number of transactions.
 */
@LongTest
class PgbenchTest {
  private static final int ROWS = 2_000;
  private static final int CLIENTS = 8;
  private static final int TRANSACTIONS_PER_CLIENT = 100;
  private static PgServerFixture server;
  private static Path script;

  @BeforeAll static void start() throws Exception {
    PostgresServer.require();
    server = PgServerFixture.start(Backend.POSTGRES, 4, PgJdbcTest.TABLES, PgJdbcTest.DDL);
    try (Connection c = server.embedded(); Statement s = c.createStatement()) {
      PgJdbcTest.load(c, ROWS);
      s.executeUpdate("UPDATE ITEMS SET QTY = 0");
    }
    script = server.folder().resolve("transaction.sql");
    Files.writeString(script, "\\set id random(1, " + ROWS + ")\n"
        + "SELECT name, price FROM items WHERE id = :id;\n"
        + "UPDATE items SET qty = qty + 1 WHERE id = :id;\n", StandardCharsets.UTF_8);
  }

  @AfterAll static void stop() throws SQLException {
    server.close();
  }

  @ParameterizedTest @ValueSource(strings = {"extended", "prepared", "simple"})
  void everyTransactionCommitsAndTheShardsHoldItsChange(String mode) throws Exception {
    final long before = qtySum();
    final List<String> command = new ArrayList<>(List.of(pgbench(), "-h", "127.0.0.1",
        "-p", Integer.toString(server.port()), "-U", "tester", "-n", "-f", script.toString(),
        "-c", Integer.toString(CLIENTS), "-j", "2", "-t",
        Integer.toString(TRANSACTIONS_PER_CLIENT), "-M", mode, "shardset"));
    final Process pgbench = new ProcessBuilder(command).redirectErrorStream(true).start();
    final String output = new String(pgbench.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    assertTrue(pgbench.waitFor(5, TimeUnit.MINUTES), output);
    assertEquals(0, pgbench.exitValue(), output);
    final int transactions = CLIENTS * TRANSACTIONS_PER_CLIENT;
    assertTrue(output.contains("number of transactions actually processed: " + transactions
        + "/" + transactions), output);
    assertTrue(output.contains("number of failed transactions: 0 (0.000%)"), output);
    assertEquals(before + transactions, qtySum());
  }

  /** The sum of QTY over every shard's rows, read on the shards. */
  private static long qtySum() throws SQLException {
    long sum = 0;
    for (String row : server.onShards("SELECT SUM(QTY) FROM ITEMS")) {
      sum += Long.parseLong(row);
    }
    return sum;
  }

  private static String pgbench() throws IOException {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(folder, "pgbench"))) {
        return Path.of(folder, "pgbench").toString();
      }
    }
    throw new AssertionError("pgbench is not on the PATH: install PostgreSQL's client"
        + " (Debian: postgresql-client)");
  }
}
