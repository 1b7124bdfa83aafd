package io.shardset.cli.server;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.prepare.PlanCache;
import io.shardset.calcite.prepare.PlanWarmup;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code shardset server --plan-warmup FILE}: a server keeps the statements of the plans it
 * holds when it stops, and a server started again plans them before its clients ask, so that
 * their first statements plan nothing.
 */
class ServerPlanWarmupTest {
  private static final String DDL = "CREATE TABLE P (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(20) NOT NULL, CITY VARCHAR(20))";
  private static final String TABLES = "\"tables\": [{\"name\": \"P\","
      + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";
  private static final String GROUPED = "SELECT CITY, COUNT(*) FROM P GROUP BY CITY";
  private static final String POINT = "SELECT NAME FROM P WHERE ID = ";
  private static final String LIMITED = "SELECT ID FROM P ORDER BY ID LIMIT 3";

  @TempDir Path folder;

  @Test void aServerStartedAgainPlansWhatItHeldBeforeItsClientsAsk() throws Exception {
    try (ShardFixture fixture = ShardFixture.h2(4, DDL)) {
      final Path model = model(fixture);
      final Path warmup = folder.resolve("state").resolve("plans.jsonl");
      final ServerSettings settings = ServerSettings.loopback(model, 0,
          Driver.Serialization.PROTOBUF).withPlanWarmup(warmup);
      try (ShardSetServer first = ShardSetServer.start(settings);
           ShardFixture other = ShardFixture.h2(2, "CREATE TABLE Q (ID BIGINT PRIMARY KEY)");
           Connection elsewhere = Connector.SHARDSET.open(other.model("\"tables\": [{\"name\":"
               + " \"Q\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]"))) {
        assertEquals(new PlanWarmup.Outcome(0, 0), first.planWarmup().get(1, TimeUnit.MINUTES));
        assertRight(fixture, first, 7);
        // A plan of another model in the same process: not the server's to keep.
        assertEquals(List.of("0"), ShardFixture.rows(elsewhere, "SELECT COUNT(*) FROM Q"));
      }
      assertEquals(List.of(GROUPED, LIMITED, POINT + "?"), texts(warmup));
      assertEquals("rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(warmup)));

      try (ShardSetServer second = ShardSetServer.start(settings)) {
        assertEquals(new PlanWarmup.Outcome(3, 0), second.planWarmup().get(1, TimeUnit.MINUTES));
        final long plans = cache().plans();
        assertRight(fixture, second, 11);
        assertEquals(0, cache().plans() - plans);
      }
    }
  }

  @Test void aBrokenFileIsReportedAndTheServerServes() throws Exception {
    try (ShardFixture fixture = ShardFixture.h2(4, DDL)) {
      final Path warmup = folder.resolve("plans.jsonl");
      Files.writeString(warmup, "{\"schema\":[],\"sql\":\"SELECT 1\"}\nnot json\n",
          StandardCharsets.UTF_8);
      try (ShardSetServer server = ShardSetServer.start(ServerSettings.loopback(model(fixture),
          0, Driver.Serialization.PROTOBUF).withPlanWarmup(warmup))) {
        final ExecutionException e = assertThrows(ExecutionException.class,
            () -> server.planWarmup().get(1, TimeUnit.MINUTES));
        assertInstanceOf(IOException.class, e.getCause());
        assertEquals("line 2 of " + warmup + " is no statement of a plan warm-up file",
            e.getCause().getMessage());
        assertRight(fixture, server, 3);
      }
    }
  }

  private Path model(ShardFixture fixture) throws SQLException, IOException {
    final String model = fixture.model(TABLES);
    try (Connection loading = ShardFixture.connect(model)) {
      final List<Object[]> rows = new ArrayList<>();
      for (long id = 1; id <= 40; id++) {
        rows.add(new Object[] {id, "name " + id, id % 3 == 0 ? null : "city " + id % 5});
      }
      fixture.load(loading, "P", rows);
    }
    final Path file = folder.resolve("model.json");
    Files.writeString(file, model, StandardCharsets.UTF_8);
    return file;
  }

  private static void assertRight(ShardFixture fixture, ShardSetServer server, long id)
      throws SQLException {
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
      for (String sql : List.of(GROUPED, POINT + id, LIMITED)) {
        assertEquals(ShardFixture.sorted(fixture.oracleRows(sql)),
            ShardFixture.sorted(ShardFixture.rows(remote, sql)), sql);
      }
    }
  }

  private static List<String> texts(Path warmup) throws IOException {
    return PlanWarmup.read(warmup).stream().map(PlanWarmup.Statement::sql).sorted().toList();
  }

  private static PlanCache cache() throws SQLException {
    return ((ShardSetDriver) DriverManager.getDriver(ShardSetDriver.CONNECT_STRING_PREFIX))
        .planCache();
  }
}
