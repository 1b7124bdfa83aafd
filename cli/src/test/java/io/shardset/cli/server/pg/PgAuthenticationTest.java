package io.shardset.cli.server.pg;

import io.shardset.cli.CapturedLog;
import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's users on its PostgreSQL port, with psql and pgJDBC: SCRAM-SHA-256 with the
 * users file's passwords, a wrong password, an unknown user and a user without a role that
 * may connect refused alike, a user without the write role read-only; and psql's own use:
 * queries, several statements in one {@code -c}, errors with their SQLStates.
 */
class PgAuthenticationTest {
  private static PgServerFixture server;

  @BeforeAll static void start() throws Exception {
    final Path folder = Files.createTempDirectory("pg-users");
    final Path users = folder.resolve("users.properties");
    Files.writeString(users, "alice: secret,users,write\nreader: words,users\n"
        + "outsider: keep-out,nobody\n", StandardCharsets.UTF_8);
    server = PgServerFixture.start(Backend.H2, 3, PgJdbcTest.TABLES,
        settings -> settings.withUsers(users, List.of("users")), PgJdbcTest.DDL);
    try (Connection c = server.embedded()) {
      PgJdbcTest.load(c, 50);
    }
  }

  @AfterAll static void stop() throws SQLException {
    server.close();
  }

  private static String url(String user, String password) {
    return "jdbc:postgresql://127.0.0.1:" + server.port() + "/shardset?user=" + user
        + "&password=" + password;
  }

  @Test void aUserLogsInWithScramAndWrites() throws Exception {
    try (Connection c = DriverManager.getConnection(url("alice", "secret"));
         Statement s = c.createStatement()) {
      assertEquals(1, s.executeUpdate("UPDATE ITEMS SET NAME = 'by alice' WHERE ID = 7"));
    }
    assertEquals(List.of("by alice"), server.onShards("SELECT NAME FROM ITEMS WHERE ID = 7"));
  }

  @Test void wrongPasswordsUnknownUsersAndUsersWithoutARoleAreRefusedAlike() {
    final String log;
    try (CapturedLog captured = new CapturedLog()) {
      for (String[] login : new String[][] {{"alice", "wrong"}, {"nobody", "secret"},
          {"outsider", "keep-out"}}) {
        final SQLException refused = assertThrows(SQLException.class,
            () -> DriverManager.getConnection(url(login[0], login[1])).close());
        assertEquals("28P01", refused.getSQLState(), login[0]);
        assertEquals("FATAL: password authentication failed for user \"" + login[0] + "\"",
            refused.getMessage());
      }
      log = captured.text();
    }
    assertTrue(log.contains("PostgreSQL authentication failed for user 'outsider'"), log);
    for (String password : List.of("wrong", "secret", "keep-out")) {
      assertFalse(log.contains(password), log);
    }
  }

  @Test void aUserWithoutTheWriteRoleOnlyReads() throws Exception {
    try (Connection c = DriverManager.getConnection(url("reader", "words"));
         Statement s = c.createStatement()) {
      assertEquals(List.of("50"), ShardFixture.rows(c, "SELECT COUNT(*) FROM ITEMS"));
      final SQLException refused = assertThrows(SQLException.class,
          () -> s.executeUpdate("DELETE FROM ITEMS WHERE ID = 8"));
      assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
    }
    assertEquals(List.of("8"), server.onShards("SELECT ID FROM ITEMS WHERE ID = 8"));
  }

  @Test void psqlLogsInQueriesAndReportsErrorsWithTheirSqlStates() throws Exception {
    final Psql.Run run = Psql.run(server.port(), "alice", "secret", "-F", "|", "-c",
        "SELECT id, name, price FROM items WHERE id IN (3, 5) ORDER BY id");
    assertEquals(0, run.exitCode(), run.err());
    final List<String> expected;
    try (Connection c = server.embedded()) {
      expected = ShardFixture.rows(c, "SELECT ID, NAME, PRICE FROM ITEMS WHERE ID IN (3, 5)"
          + " ORDER BY ID").stream().map(row -> row.replace(", ", "|")).toList();
    }
    assertEquals(expected, run.lines());
    final Psql.Run failed = Psql.run(server.port(), "alice", "secret", "-c",
        "SELECT * FROM nope");
    assertEquals(1, failed.exitCode());
    assertTrue(failed.err().startsWith("ERROR:  42P01: "), failed.err());
    final Psql.Run refused = Psql.run(server.port(), "alice", "wrong", "-c", "SELECT 1");
    assertEquals(2, refused.exitCode());
    assertTrue(refused.err().endsWith(
        "FATAL:  password authentication failed for user \"alice\""), refused.err());
    assertFalse(refused.err().contains("wrong"), refused.err());
  }

  @Test void psqlsStatementsInOneCommandRunAsOneTransaction() throws Exception {
    final Psql.Run run = Psql.run(server.port(), "alice", "secret", "-c",
        "INSERT INTO items (id, grp, name) VALUES (901, 1, 'a');"
            + " INSERT INTO items (id, grp, name) VALUES (902, 1, 'b');"
            + " INSERT INTO items (id, grp, name) VALUES (1, 1, 'duplicate')");
    assertEquals(1, run.exitCode(), run.err());
    assertTrue(run.err().startsWith("ERROR:  23505: "), run.err());
    assertEquals(List.of(), server.onShards("SELECT ID FROM ITEMS WHERE ID > 900"));
    final Psql.Run block = Psql.run(server.port(), "alice", "secret", "-c",
        "BEGIN; INSERT INTO items (id, grp, name) VALUES (903, 1, 'c'); COMMIT;"
            + " SELECT count(*) FROM items WHERE id = 903");
    assertEquals(0, block.exitCode(), block.err());
    assertEquals(List.of("1"), block.lines());
    assertEquals(List.of("903"), server.onShards("SELECT ID FROM ITEMS WHERE ID > 900"));
  }
}
