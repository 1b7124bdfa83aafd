package io.shardset.transaction;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.execution.ShardEndpoint;
import io.shardset.model.CatalogSpec;
import io.shardset.model.TransactionsSpec;
import io.shardset.testing.Backend;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.TestPools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The coordinator's process killed in the middle of a two-phase commit across PostgreSQL,
 * MariaDB and H2 file shards: a fresh coordinator's recovery commits the transaction when the
 * process had recorded its decision (in an H2 file that the killed process had open), and
 * rolls it back when it had not. The H2 shard, which only the killed process had open, keeps
 * its prepared transaction through the crash.
 */
class KilledCoordinatorTest {
  @TempDir Path folder;

  @Test void killedAfterTheDecisionIsCommitted() throws Exception {
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 2);
         TxShards more = TxShards.create(Backend.MARIADB, 1)) {
      final LogDatabase log = TxShards.log(folder, "log");
      final String gid = runAndKill(log.h2File().toString(), "decided", shards, more);
      final Map<String, DecisionLog.Decision> decisions = TxShards.decisions(log);
      assertEquals(List.of(gid), List.copyOf(decisions.keySet()));
      assertEquals(List.of("s0", "s1", "m0", "h0"), decisions.get(gid).participants());
      assertEquals(new RecoveryReport(4, 0, 0, 0, 1, List.of()), recover(log, shards, more));
      assertEquals(List.of(1), h2Ids());
      assertEquals(List.of(List.of(1), List.of(1)), shards.idsEverywhere());
      assertEquals(List.of(List.of(1)), more.idsEverywhere());
      assertEquals(Map.of(), TxShards.decisions(log));
    }
  }

  /**
   * A model kept in a catalog keeps its decision log there: a process killed after deciding
   * has its transaction finished by another process of the same catalog, whose background
   * recovery (every second here) commits it without being asked.
   */
  @Test void killedAfterTheDecisionWithTheLogInACatalogIsCommittedByAnotherProcess()
      throws Exception {
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 2);
         TxShards more = TxShards.create(Backend.MARIADB, 1)) {
      final String catalogUrl = PostgresServer.url(
          PostgresServer.createDatabases("txcatalog", 1).get(0));
      final LogDatabase log = TxShards.log(Objects.requireNonNull(TransactionSettings.of("TX",
          TransactionsSpec.DEFAULT, null, null,
          new CatalogSpec(catalogUrl, PostgresServer.USER, "")).log()));
      assertEquals(new LogDatabase(catalogUrl, PostgresServer.USER, "", null), log);
      final String gid = runAndKill(catalogUrl + "?user=" + PostgresServer.USER, "decided",
          shards, more);
      assertEquals(List.of(gid), List.copyOf(TxShards.decisions(log).keySet()));
      final Map<String, ShardEndpoint> endpoints = new LinkedHashMap<>(shards.endpoints());
      endpoints.put("m0", more.endpoint(0));
      endpoints.put("h0", TestPools.pools().endpoint(h2()));
      try (TransactionCoordinator survivor = new TransactionCoordinator(
          new TransactionSettings("TX", log, null, false, Duration.ofSeconds(1)), endpoints)) {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!(h2Ids().equals(List.of(1))
            && shards.idsEverywhere().equals(List.of(List.of(1), List.of(1)))
            && more.idsEverywhere().equals(List.of(List.of(1)))
            && TxShards.decisions(log).isEmpty())) {
          assertTrue(System.nanoTime() < deadline, "not finished by the survivor in a minute");
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
      }
    }
  }

  @Test void killedBeforeTheDecisionIsRolledBack() throws Exception {
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 2);
         TxShards more = TxShards.create(Backend.MARIADB, 1)) {
      final LogDatabase log = TxShards.log(folder, "log");
      runAndKill(log.h2File().toString(), "prepared", shards, more);
      assertEquals(Map.of(), TxShards.decisions(log));
      assertEquals(new RecoveryReport(0, 4, 0, 0, 0, List.of()), recover(log, shards, more));
      assertEquals(List.of(), h2Ids());
      assertEquals(List.of(List.of(), List.of()), shards.idsEverywhere());
      assertEquals(List.of(List.of()), more.idsEverywhere());
      assertEquals(List.of(), shards.preparedEverywhere(TxShards.prefix(log)));
    }
  }

  /** The H2 file shard: only the processes that use it have it open. */
  private ShardConnectionSettings h2() {
    return new ShardConnectionSettings("h0", "jdbc:h2:file:" + folder.resolve("h0")
        + ";AUTO_SERVER=TRUE", "sa", "", null, 2);
  }

  private List<Integer> h2Ids() throws SQLException {
    final List<Integer> ids = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(h2().jdbcUrl(), "sa", "");
         Statement s = c.createStatement();
         ResultSet rows = s.executeQuery("select id from t order by id")) {
      while (rows.next()) {
        ids.add(rows.getInt(1));
      }
    }
    return ids;
  }

  /**
   * Runs the coordinator process, its log at {@code log} (an H2 file's path or a JDBC URL),
   * until it stops at the step, kills it, returns the gid.
   */
  private String runAndKill(String log, String step, TxShards postgres,
      TxShards mariaDb) throws IOException, InterruptedException, SQLException {
    try (Connection c = DriverManager.getConnection(h2().jdbcUrl(), "sa", "");
         Statement s = c.createStatement()) {
      s.execute("create table t(id int primary key)");
    }
    final List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), CoordinatorProcess.class.getName(),
        log, step));
    for (int i = 0; i < postgres.count(); i++) {
      command.add(argument("s" + i, postgres.settings(i)));
    }
    command.add(argument("m0", mariaDb.settings(0)));
    command.add(argument("h0", h2()));
    final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    final List<String> output = new ArrayList<>();
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        output.add(line);
        if (line.startsWith(CoordinatorProcess.STOPPED)) {
          process.destroyForcibly();
          process.waitFor();
          return line.substring(CoordinatorProcess.STOPPED.length());
        }
      }
    } finally {
      process.destroyForcibly();
    }
    process.waitFor();
    throw new AssertionError("the coordinator process ended without stopping: " + output);
  }

  private static String argument(String name, ShardConnectionSettings settings) {
    return name + "|" + settings.jdbcUrl() + "|" + settings.user();
  }

  private RecoveryReport recover(LogDatabase log, TxShards postgres, TxShards mariaDb)
      throws SQLException {
    final Map<String, io.shardset.execution.ShardEndpoint> endpoints =
        new java.util.LinkedHashMap<>(postgres.endpoints());
    endpoints.put("m0", mariaDb.endpoint(0));
    endpoints.put("h0", TestPools.pools().endpoint(h2()));
    try (TransactionCoordinator coordinator = new TransactionCoordinator(
        TxShards.settings(log, false), endpoints, Steps.NONE, false)) {
      // Until a pass finds nothing to do and nothing to forget: recovery leaves the MariaDB
      // branch alone until its server has ended the killed process's session, which it does
      // once it notices the closed socket, and forgets a record on its second look.
      RecoveryReport report = TxShards.recoverAll(coordinator);
      for (int pass = 0; pass < 1000; pass++) {
        final RecoveryReport next = coordinator.recover();
        if (next.isEmpty() && (report.committed() == 4 || report.committed() == 0)) {
          break;
        }
        report = report.plus(next);
      }
      assertTrue(report.unreachable().isEmpty(), report.toString());
      return report;
    }
  }
}
