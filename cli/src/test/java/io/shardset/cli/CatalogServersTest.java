package io.shardset.cli;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.catalog.CatalogDatabase;
import io.shardset.catalog.ModelCatalog;
import io.shardset.catalog.ModelDocuments;
import io.shardset.catalog.ProcessRegistry;
import io.shardset.model.CatalogSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.reshard.ModelFile;
import io.shardset.reshard.RowOwners;
import io.shardset.testing.LongTest;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three servers, each a JVM of its own, on one PostgreSQL catalog and PostgreSQL shards, with
 * a client writing through each (transactions of two rows on two customers, their ids from a
 * global sequence) while {@code shardset reshard apply} adds a shard, during which one server
 * is killed, and then removes another, during which a second server is paused past its lease
 * and resumed. At the end: every committed transaction's two rows once each, on the shard the
 * final model places them; a transaction whose outcome its client could not know has both rows
 * or neither; no sequence value twice; no transaction left prepared on a shard (a survivor
 * finished the killed server's); the resumed server registered again and runs the newest
 * version.
 */
@LongTest
class CatalogServersTest {
  private static final String SCHEMA = "S";
  private static final String DDL = "CREATE TABLE ENTRIES (ENTRY_ID BIGINT PRIMARY KEY,"
      + " TX_ID BIGINT NOT NULL, CUSTOMER_ID INTEGER NOT NULL, AMOUNT INTEGER NOT NULL)";
  private static final int CUSTOMERS = 5_000;
  private static final long LEASE_MILLIS = 3_000;

  @TempDir Path folder;

  private final List<Server> servers = new ArrayList<>();
  private final List<String> shardUrls = new ArrayList<>();

  /** A server's JVM and the URL it serves at. */
  private record Server(Process process, String url) {
  }

  /** What the clients did: committed transactions and those of unknown outcome. */
  private static final class Outcomes {
    final Set<Long> committed = ConcurrentHashMap.newKeySet();
    final Set<Long> unknown = ConcurrentHashMap.newKeySet();
    final AtomicLong failures = new AtomicLong();
  }

  @AfterEach void stopServers() {
    for (Server server : servers) {
      resume(server);
      server.process().destroyForcibly();
    }
  }

  @Test void serversFollowMovesAndSurviveEachOther() throws Exception {
    PostgresServer.require();
    final List<String> databases = PostgresServer.createDatabases("catsrv", 5);
    for (int i = 0; i < 4; i++) {
      shardUrls.add(PostgresServer.url(databases.get(i)));
    }
    for (int i = 0; i < 3; i++) {
      try (Connection c = DriverManager.getConnection(shardUrls.get(i), PostgresServer.USER,
          ""); Statement s = c.createStatement()) {
        s.execute(DDL);
      }
    }
    final CatalogSpec catalog = new CatalogSpec(PostgresServer.url(databases.get(4)),
        PostgresServer.USER, "", LEASE_MILLIS, 100);
    final ModelCatalog models = ModelCatalog.of(catalog);
    models.create();
    models.publish(SCHEMA, 0, ModelDocuments.shardSetSchemas(model(3), "model.json").get(0)
        .operand(), "test");
    final Path pointer = folder.resolve("pointer.json");
    Files.writeString(pointer, ModelDocuments.pointerFile(SCHEMA, catalog));

    for (int i = 0; i < 3; i++) {
      servers.add(start(pointer, i));
    }
    final Outcomes outcomes = new Outcomes();
    final AtomicBoolean running = new AtomicBoolean(true);
    final List<CompletableFuture<Void>> clients = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      final int first = i;
      clients.add(CompletableFuture.runAsync(() -> client(first, running, outcomes)));
    }
    awaitThat(() -> outcomes.committed.size() >= 100, "clients commit");

    // A shard joins; the first server is killed once the move is announced.
    final CompletableFuture<CliRun> adding = CompletableFuture.supplyAsync(() -> CliRun.of(
        "reshard", "apply", "add-shard", "s3", "--jdbc-url", shardUrls.get(3),
        "--jdbc-user", PostgresServer.USER, "--model", pointer.toString()));
    awaitThat(() -> newest(models) >= 2, "the move is announced");
    servers.get(0).process().destroyForcibly().waitFor();
    final CliRun added = adding.get(5, TimeUnit.MINUTES);
    assertEquals(0, added.code(), added.err());
    assertTrue(added.err().contains(" excluded: its lease ran out "), added.err());
    final long committedAfterAdd = outcomes.committed.size();
    awaitThat(() -> outcomes.committed.size() >= committedAfterAdd + 100, "clients go on");

    // A shard leaves; the second server is paused past its lease meanwhile.
    final Server paused = servers.get(1);
    signal(paused, "STOP");
    final CliRun removed = CliRun.of("reshard", "apply", "remove-shard", "s0", "--model",
        pointer.toString());
    assertEquals(0, removed.code(), removed.err());
    assertTrue(removed.err().contains(" excluded: its lease ran out "), removed.err());
    final long finalVersion = newest(models);
    resume(paused);
    final long committedAfterRemove = outcomes.committed.size();
    awaitThat(() -> outcomes.committed.size() >= committedAfterRemove + 100, "clients go on");
    // The paused server registered again, under the newest version.
    awaitThat(() -> registered(catalog).size() == 2
        && registered(catalog).stream().allMatch(p -> p.runsVersion() == finalVersion),
        "both live servers run version " + finalVersion);
    assertTrue(Files.readString(folder.resolve("server1.log")).contains("Schema 'S': this"
        + " process was excluded from the catalog " + catalog.jdbcUrl() + " as postgres while"
        + " it could not reach it; registered again"), "the paused server's log");

    running.set(false);
    CompletableFuture.allOf(clients.toArray(new CompletableFuture[0])).get(2, TimeUnit.MINUTES);
    // The killed server's prepared transactions are finished by a survivor's recovery.
    awaitThat(() -> prepared() == 0, "no transaction left prepared");
    assertRows(pointer, outcomes);
  }

  /** The model: shards s0 to s{count-1}, ENTRIES by customer, ids from a sequence. */
  private String model(int count) {
    final StringBuilder shards = new StringBuilder();
    for (int i = 0; i < count; i++) {
      shards.append(i == 0 ? "" : ", ").append("{\"name\": \"s").append(i)
          .append("\", \"jdbcUrl\": \"").append(shardUrls.get(i)).append("\", \"jdbcUser\": \"")
          .append(PostgresServer.USER).append("\", \"jdbcPassword\": \"\"}");
    }
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + SCHEMA + "\", \"schemas\": [{"
        + "\"name\": \"" + SCHEMA + "\", \"type\": \"custom\", \"factory\": \""
        + ModelDocuments.SCHEMA_FACTORY + "\", \"operand\": {\"shards\": [" + shards + "],"
        + " \"chunks\": 120, \"transactions\": {\"recoveryIntervalSeconds\": 2},"
        + " \"sequences\": [{\"name\": \"ENTRY_IDS\", \"blockSize\": 50}],"
        + " \"tables\": [{\"name\": \"ENTRIES\", \"method\": \"consistent-hash\","
        + " \"shardKey\": [\"CUSTOMER_ID\"], \"columnSequences\": {\"ENTRY_ID\": \"ENTRY_IDS\"}}]"
        + "}}]}";
  }

  /** Starts a server JVM on the pointer; returns once it serves. */
  private Server start(Path pointer, int number) throws IOException {
    final Process process = new ProcessBuilder(
        ProcessHandle.current().info().command().orElse("java"), "-cp",
        System.getProperty("java.class.path"), ShardSetCli.class.getName(), "server",
        "--model", pointer.toString(), "--port", "0")
        .redirectError(folder.resolve("server" + number + ".log").toFile())
        .start();
    final BufferedReader out = new BufferedReader(new InputStreamReader(
        process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      final int at = line.indexOf(" at jdbc:avatica:remote:");
      if (line.startsWith("Serving ") && at > 0) {
        return new Server(process, line.substring(at + 4).replace("jdbc:avatica:remote:",
            ShardSetRemoteDriver.CONNECT_STRING_PREFIX));
      }
    }
    throw new AssertionError("server " + number + " ended without serving; see "
        + folder.resolve("server" + number + ".log"));
  }

  /**
   * Writes transactions of two entries through the servers, its own first and the next one
   * when a server fails it, until told to stop.
   */
  private void client(int first, AtomicBoolean running, Outcomes outcomes) {
    int server = first;
    long next = 0;
    Connection c = null;
    while (running.get()) {
      final long tx = first * 1_000_000_000L + next++;
      boolean committing = false;
      try {
        if (c == null) {
          c = DriverManager.getConnection(servers.get(server).url());
          c.setAutoCommit(false);
        }
        try (PreparedStatement insert = c.prepareStatement(
            "INSERT INTO ENTRIES (TX_ID, CUSTOMER_ID, AMOUNT) VALUES (?, ?, ?)")) {
          final int amount = 1 + ThreadLocalRandom.current().nextInt(100);
          final int from = ThreadLocalRandom.current().nextInt(CUSTOMERS);
          final int to = (from + 1 + ThreadLocalRandom.current().nextInt(CUSTOMERS - 1))
              % CUSTOMERS;
          for (int[] row : List.of(new int[] {from, amount}, new int[] {to, -amount})) {
            insert.setLong(1, tx);
            insert.setInt(2, row[0]);
            insert.setInt(3, row[1]);
            insert.executeUpdate();
          }
        }
        committing = true;
        c.commit();
        outcomes.committed.add(tx);
      } catch (SQLException | RuntimeException e) {
        // Avatica's client throws RuntimeException when the server is gone.
        outcomes.failures.incrementAndGet();
        if (committing) {
          outcomes.unknown.add(tx);
        }
        try {
          if (c != null) {
            c.close();
          }
        } catch (SQLException closing) {
          // The server is gone.
        }
        c = null;
        if (!(e instanceof SQLException sql && "08006".equals(sql.getSQLState()))
            || !alive(server)) {
          server = (server + 1) % servers.size();
        }
        while (!alive(server)) {
          server = (server + 1) % servers.size();
        }
      }
    }
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // Closing only.
      }
    }
  }

  private boolean alive(int server) {
    return servers.get(server).process().isAlive();
  }

  /** Every committed transaction's rows once, where the final model places them. */
  private void assertRows(Path pointer, Outcomes outcomes) throws SQLException {
    final ShardSetModel model = ModelFile.read(pointer).model(SCHEMA);
    assertEquals(List.of("s1", "s2", "s3"),
        model.shards().stream().map(s -> s.name()).toList());
    final RowOwners owners = RowOwners.of(ShardSetRuntime.get().schema(model).table("ENTRIES")
        .sharded(), model);
    final Map<Long, Integer> rowsPerTx = new HashMap<>();
    final Map<Long, Integer> sumPerTx = new HashMap<>();
    final Set<Long> ids = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      try (Connection c = DriverManager.getConnection(shardUrls.get(i), PostgresServer.USER,
          ""); Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT ENTRY_ID, TX_ID, CUSTOMER_ID, AMOUNT FROM"
               + " ENTRIES")) {
        while (rs.next()) {
          final long id = rs.getLong(1);
          final long tx = rs.getLong(2);
          assertTrue(ids.add(id), "entry id " + id + " twice");
          assertEquals(owners.ownerOf(List.of(rs.getInt(3))), "s" + i,
              "entry " + id + " of customer " + rs.getInt(3) + " on the wrong shard");
          rowsPerTx.merge(tx, 1, Integer::sum);
          sumPerTx.merge(tx, rs.getInt(4), Integer::sum);
        }
      }
    }
    for (long tx : outcomes.committed) {
      assertEquals(2, rowsPerTx.getOrDefault(tx, 0), "committed transaction " + tx);
    }
    rowsPerTx.forEach((tx, rows) -> {
      assertTrue(outcomes.committed.contains(tx) || outcomes.unknown.contains(tx),
          "transaction " + tx + " has rows but was never committed");
      assertEquals(2, rows, "transaction " + tx + " half committed");
      assertEquals(0, sumPerTx.get(tx), "transaction " + tx);
    });
    System.out.printf(Locale.ROOT, "%d committed, %d of unknown outcome (%d kept), %d failed"
        + " statements%n", outcomes.committed.size(), outcomes.unknown.size(),
        outcomes.unknown.stream().filter(rowsPerTx::containsKey).count(),
        outcomes.failures.get());
  }

  private long prepared() {
    long prepared = 0;
    for (String url : shardUrls) {
      try (Connection c = DriverManager.getConnection(url, PostgresServer.USER, "");
           Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pg_prepared_xacts"
               + " WHERE database = current_database()")) {
        rs.next();
        prepared += rs.getLong(1);
      } catch (SQLException e) {
        throw new AssertionError(e);
      }
    }
    return prepared;
  }

  private static long newest(ModelCatalog models) {
    try {
      return models.newestNumber(SCHEMA);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private static List<ProcessRegistry.Process> registered(CatalogSpec catalog) {
    try {
      return ProcessRegistry.of(CatalogDatabase.of(catalog)).processes(SCHEMA);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private static void signal(Server server, String signal) {
    try {
      final Process kill = new ProcessBuilder("kill", "-" + signal,
          Long.toString(server.process().pid())).inheritIO().start();
      assertEquals(0, kill.waitFor());
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void resume(Server server) {
    if (server.process().isAlive()) {
      signal(server, "CONT");
    }
  }

  /** Polls until the condition holds, for at most two minutes. */
  private static void awaitThat(BooleanSupplier condition, String what) {
    final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "still not true after two minutes: " + what);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }
}
