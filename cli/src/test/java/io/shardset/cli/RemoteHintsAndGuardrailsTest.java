package io.shardset.cli;

import io.shardset.cli.server.ResultSpooling;
import io.shardset.cli.server.RoleScatter;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.RemoteMetaAccess;
import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hints and scatter guardrails through a server: a SHARDS hint keeps a remote statement to
 * the named shards (a shard whose table is gone would fail any statement that reached it), and
 * the server's scatter limits by role deny, allow, or defer to the model, with the role named
 * in the refusal a remote client gets.
 */
class RemoteHintsAndGuardrailsTest {
  private static final String MODEL = "\"chunks\": 60, \"scatter\": \"warn\", \"tables\": ["
      + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]";
  private static final String DDL = "CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR(20))";
  private static final int ROWS = 60;

  @TempDir Path folder;
  private H2Shards shards;
  private ShardSetServer server;

  @BeforeEach void createShards() throws Exception {
    shards = H2Shards.create(folder, 3, MODEL, DDL);
    for (long k = 1; k <= ROWS; k++) {
      final int shard = shards.table("T").router().shardOf(List.of(k)).orElseThrow();
      shards.execute(shard, "INSERT INTO T VALUES (" + k + ", 'v" + k + "')");
    }
    final Path realm = folder.resolve("realm.properties");
    Files.writeString(realm, "app: a,users,app\nanna: b,users,analyst\nboth: c,users,analyst,app\n"
        + "nora: d,users\n");
    server = ShardSetServer.start(ServerSettings.loopback(shards.modelFile(), 0,
            Driver.Serialization.PROTOBUF).withUsers(realm, List.of("users"))
        // Results streamed at their clients' pace: a statement runs on until its rows are read.
        .withSpooling(ResultSpooling.DEFAULT.streamed())
        .withRoleScatter(List.of(RoleScatter.parse("analyst=allow"),
            RoleScatter.parse("app=deny:2")))
        .withOperatorRoles(List.of("analyst")));
  }

  @AfterEach void stop() throws SQLException {
    if (server != null) {
      server.close();
    }
    shards.close();
  }

  private Connection as(String user, String password) throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl() + ";avatica_user=" + user
        + ";avatica_password=" + password);
  }

  private static List<String> rows(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return H2Shards.rows(rs);
    }
  }

  @Test void shardsHintKeepsARemoteStatementToTheNamedShard() throws Exception {
    final List<String> onS1 = shards.rows(1, "SELECT K FROM T ORDER BY K");
    // Any statement that reached s0 or s2 would now fail.
    shards.execute(0, "ALTER TABLE T RENAME TO T_AWAY");
    shards.execute(2, "ALTER TABLE T RENAME TO T_AWAY");
    try (Connection anna = as("anna", "b")) {
      assertEquals(onS1, rows(anna, "SELECT /*+ SHARDS(s1) */ K FROM T ORDER BY K"));
      try (PreparedStatement p = anna.prepareStatement(
          "SELECT V FROM T /*+ SHARDS(s1) */ WHERE K = ?")) {
        p.setLong(1, Long.parseLong(onS1.get(0)));
        try (ResultSet rs = p.executeQuery()) {
          assertEquals(List.of("v" + onS1.get(0)), H2Shards.rows(rs));
        }
      }
      final SQLException e = assertThrows(SQLException.class,
          () -> rows(anna, "SELECT /*+ SHARDS(s7) */ K FROM T"));
      assertEquals("42000", e.getSQLState());
      assertTrue(e.getMessage().endsWith("hint SHARDS names a shard the model does not have:"
          + " S7; its shards are s0, s1, s2"), e.getMessage());
    }
  }

  @Test void roleLimitsReplaceTheModels() throws Exception {
    final List<Long> keys = new ArrayList<>();
    for (int shard = 0; shard < 3; shard++) {
      keys.add(Long.parseLong(shards.rows(shard, "SELECT MIN(K) FROM T").get(0)));
    }
    final String three = "SELECT V FROM T WHERE K IN (" + keys.get(0) + ", " + keys.get(1)
        + ", " + keys.get(2) + ")";
    try (Connection app = as("app", "a"); Connection both = as("both", "c");
         Connection anna = as("anna", "b"); Connection nora = as("nora", "d")) {
      final SQLException e = assertThrows(SQLException.class, () -> rows(app, three));
      assertEquals("54000", e.getSQLState());
      assertTrue(e.getMessage().endsWith("scatter denied: the statement reads S.T on 3 of its 3"
          + " shards, more than the scatter setting of role 'app' allows (maxShards 2); add a"
          + " condition on its shard key (K), or allow it with the hint /*+ SCATTER */"),
          e.getMessage());
      assertEquals(2, rows(app, "SELECT V FROM T WHERE K IN (" + keys.get(0) + ", "
          + keys.get(1) + ")").size());
      assertEquals(3, rows(app, "SELECT /*+ SCATTER */ V FROM T WHERE K IN (" + keys.get(0)
          + ", " + keys.get(1) + ", " + keys.get(2) + ")").size());
      // The first listed role a user has applies: analyst, which allows.
      assertEquals(ROWS, rows(both, "SELECT K FROM T").size());
      assertEquals(ROWS, rows(anna, "SELECT K FROM T").size());
      // No listed role: the model's setting (warn) lets it run.
      assertEquals(ROWS, rows(nora, "SELECT K FROM T").size());
    }
  }

  @Test void clientCannotSetItsOwnLimit() throws Exception {
    try (Connection app = DriverManager.getConnection(server.jdbcUrl()
        + ";avatica_user=app;avatica_password=a;scatter=allow;scatterSource=nobody")) {
      final SQLException e = assertThrows(SQLException.class,
          () -> rows(app, "SELECT K FROM T"));
      assertTrue(e.getMessage().contains("scatter setting of role 'app'"), e.getMessage());
    }
  }

  /**
   * SHARDSET.STATEMENTS through the server: a user sees their own running statements, one with
   * an operator role every user's, and only the operator may cancel another user's.
   */
  @Test void operatorsSeeAndCancelEveryUsersStatementsOthersTheirOwn() throws Exception {
    final String sql = "SELECT /*+ SCATTER */ A.K FROM T A, T B";
    try (Connection app = as("app", "a"); Statement s = app.createStatement();
         ResultSet running = s.executeQuery(sql);
         Connection nora = as("nora", "d"); Connection anna = as("anna", "b")) {
      // More rows than the first frame: the statement runs on until they are read.
      assertTrue(running.next());
      final String list = "SELECT USER_NAME, SQL_TEXT FROM SHARDSET.STATEMENTS ORDER BY ID";
      assertEquals(1, rows(nora, list).size(), rows(nora, list).toString());
      assertTrue(rows(nora, list).get(0).startsWith("nora"), rows(nora, list).toString());
      final List<String> seen = rows(anna, list);
      assertEquals(2, seen.size(), seen.toString());
      assertTrue(seen.get(0).startsWith("app") && seen.get(0).contains(sql), seen.toString());
      final long id;
      try (Statement find = anna.createStatement(); ResultSet rs = find.executeQuery(
          "SELECT ID FROM SHARDSET.STATEMENTS WHERE USER_NAME = 'app'")) {
        assertTrue(rs.next());
        id = rs.getLong(1);
      }
      assertEquals(List.of("false"), rows(nora, "SELECT SHARDSET.CANCEL(" + id + ")"));
      assertEquals(List.of("true"), rows(anna, "SELECT SHARDSET.CANCEL(" + id + ")"));
      assertThrows(Exception.class, () -> {
        while (running.next()) {
          running.getObject(1);
        }
      });
    }
  }

  /**
   * A client that names another user's statement (statement numbers count up from 1 on the
   * server) through its own connection, or through the other user's connection, can neither
   * read its rows nor close it; the owner reads on.
   */
  @Test void aUserCannotReadOrCloseAnotherUsersStatement() throws Exception {
    final String sql = "SELECT /*+ SCATTER */ A.K FROM T A, T B";
    try (Connection app = as("app", "a"); Statement s = app.createStatement();
         ResultSet running = s.executeQuery(sql); Connection nora = as("nora", "d")) {
      assertTrue(running.next());
      final Meta.StatementHandle theirs = s.unwrap(AvaticaStatement.class).handle;
      final Meta.StatementHandle named =
          new Meta.StatementHandle(RemoteMetaAccess.id(nora), theirs.id, null);
      final Meta meta = RemoteMetaAccess.meta(nora);
      assertThrows(NoSuchStatementException.class, () -> meta.fetch(named, 1, 100));
      assertThrows(NoSuchStatementException.class, () -> meta.fetch(theirs, 1, 100));
      // Closing is refused without a word, as if the statement were not there.
      meta.closeStatement(named);
      meta.closeStatement(theirs);
      int rows = 1;
      while (running.next()) {
        rows++;
      }
      assertEquals(ROWS * ROWS, rows);
    }
  }

  @Test void roleScatterOptionsReachTheSettings() throws Exception {
    final Path realm = folder.resolve("realm.properties");
    final ServerCommand command = new ServerCommand();
    new CommandLine(command).parseArgs("--model", shards.modelFile().toString(),
        "--users", realm.toString(), "--role-scatter", "analyst=allow",
        "--role-scatter", "app=deny:2");
    assertEquals(List.of(RoleScatter.parse("analyst=allow"), RoleScatter.parse("app=deny:2")),
        command.settings().roleScatter());
    final ServerCommand operating = new ServerCommand();
    new CommandLine(operating).parseArgs("--model", shards.modelFile().toString(),
        "--users", realm.toString(), "--slow-query-ms", "250", "--operator-role", "ops,dba");
    assertEquals(250, operating.settings().slowQueryMillis());
    assertEquals(List.of("ops", "dba"), operating.settings().operatorRoles());
    final StringWriter err = new StringWriter();
    final CommandLine cli = ShardSetCli.commandLine();
    cli.setErr(new PrintWriter(err, true));
    assertEquals(1, cli.execute("server", "--model", shards.modelFile().toString(),
        "--port", "0", "--role-scatter", "app=deny"));
    assertEquals("server failed to start: scatter limits by role need --users: without"
        + " authentication no user has a role", err.toString().strip());
    final StringWriter bad = new StringWriter();
    cli.setErr(new PrintWriter(bad, true));
    assertEquals(2, cli.execute("server", "--model", shards.modelFile().toString(),
        "--users", realm.toString(), "--role-scatter", "app"));
    assertEquals("Invalid value for option '--role-scatter' (ROLE=MODE[:MAX_SHARDS]): role"
        + " scatter 'app': expected ROLE=MODE[:MAX_SHARDS], as in app=deny:4",
        bad.toString().lines().findFirst().orElse(""));
  }

  @Test void roleLimitWithoutUsersIsRefused() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ServerSettings.loopback(shards.modelFile(), 0, Driver.Serialization.PROTOBUF)
            .withRoleScatter(List.of(RoleScatter.parse("app=deny"))));
    assertEquals("scatter limits by role need --users: without authentication no user has a"
        + " role", e.getMessage());
    assertEquals("role scatter 'app=sometimes': unknown value 'sometimes'; expected one of"
        + " allow, warn, deny", assertThrows(IllegalArgumentException.class,
            () -> RoleScatter.parse("app=sometimes")).getMessage());
    assertEquals("role scatter 'app=deny:0': the most shards must be a positive integer",
        assertThrows(IllegalArgumentException.class,
            () -> RoleScatter.parse("app=deny:0")).getMessage());
  }
}
