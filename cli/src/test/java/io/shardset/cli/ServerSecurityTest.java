package io.shardset.cli;

import io.shardset.cli.security.GuessingGuard;
import io.shardset.cli.server.ServerSecurity;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Credentials and the audit trail: {@code shardset users add} writes a hashed password the
 * server accepts (and never the password itself); a clear-text entry works with a warning
 * naming its line; fifty wrong passwords from one address are slowed more and more (the waits
 * recorded, not slept) while the right password from another address is not slowed; the audit
 * trail has a line for each session, refusal and write, literals masked; and no password
 * appears in anything logged.
 */
class ServerSecurityTest {
  private static final String MODEL = "\"chunks\": 60, \"tables\": ["
      + "{\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";
  private static final String CUSTOMERS_DDL = "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(20) NOT NULL)";
  private static final String PASSWORD = "s3cret-Pw";
  private static final Pattern SESSION = Pattern.compile("session [0-9a-f-]+");
  private static final Pattern STATEMENT = Pattern.compile("statement [0-9]+");

  @TempDir Path folder;
  private H2Shards shards;
  private Path users;
  private ShardSetServer server;
  /** The waits the server's guard asked for, in order. */
  private final List<Duration> waits = new ArrayList<>();

  @BeforeEach void createShards() throws Exception {
    shards = H2Shards.create(folder, 2, MODEL, CUSTOMERS_DDL);
    users = folder.resolve("users.properties");
  }

  @AfterEach void stop() throws SQLException {
    if (server != null) {
      server.close();
    }
    shards.close();
  }

  private ShardSetServer start(ServerSecurity security) throws SQLException {
    return ShardSetServer.start(ServerSettings.loopback(shards.modelFile(), 0,
        Driver.Serialization.PROTOBUF).withUsers(users, List.of("users"))
        .withSecurity(security), duration -> {
          synchronized (waits) {
            waits.add(duration);
          }
        });
  }

  private Connection as(String user, String password) throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl().replace("jdbc:avatica:remote:",
        "jdbc:shardset:remote:") + ";avatica_user=" + user + ";avatica_password=" + password);
  }

  /** Runs {@code shardset users add} with the password on standard input. */
  private int addUser(String password, String... arguments) {
    final InputStream in = System.in;
    System.setIn(new ByteArrayInputStream((password + "\n").getBytes(StandardCharsets.UTF_8)));
    try {
      final CommandLine cli = ShardSetCli.commandLine();
      cli.setOut(new PrintWriter(new StringWriter(), true));
      cli.setErr(new PrintWriter(new StringWriter(), true));
      final List<String> all = new ArrayList<>(List.of("users", "add"));
      all.addAll(List.of(arguments));
      return cli.execute(all.toArray(new String[0]));
    } finally {
      System.setIn(in);
    }
  }

  @Test void usersAddWritesAHashedPasswordTheServerAccepts() throws Exception {
    Files.writeString(users, "# the server's users\nbob: old,users\n");
    assertEquals(0, addUser("first", "alice", "--file", users.toString(), "--role",
        "users,write"));
    assertEquals(0, addUser(PASSWORD, "alice", "--file", users.toString(), "--role",
        "users,write"));
    final List<String> lines = Files.readAllLines(users);
    assertEquals(3, lines.size(), lines.toString());
    assertEquals("bob: old,users", lines.get(1));
    assertTrue(lines.get(2).matches("alice: PBKDF2-SHA512:210000:[A-Za-z0-9+/=]{24}:"
        + "[A-Za-z0-9+/=]{88},SCRAM-SHA-256\\$4096:[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}:"
        + "[A-Za-z0-9+/=]{44},users,write"), lines.get(2));
    assertFalse(Files.readString(users).contains(PASSWORD));
    try (CapturedLog log = new CapturedLog()) {
      server = start(ServerSecurity.PLAIN);
      try (Connection alice = as("alice", PASSWORD); Statement s = alice.createStatement()) {
        assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (1, 'Ann')"));
      }
      final SQLException refused = assertThrows(SQLException.class, () -> as("alice", "first"));
      assertEquals("08001", refused.getSQLState());
      assertEquals("cannot connect to the ShardSet server at http://127.0.0.1:" + server.port()
          + ": the user name or password was refused (HTTP 401)", refused.getMessage());
      assertEquals(List.of("[main] WARN io.shardset.cli.server.ShardSetServer - the users file "
          + users + " line 2 stores the password of user 'bob' in clear text; replace it with"
          + " 'shardset users add bob'"), log.lines("clear text"));
      assertFalse(log.text().contains(PASSWORD) || log.text().contains("first"),
          log.text());
    }
  }

  /**
   * The user and password fields of tools and of {@code DriverManager.getConnection(url,
   * user, password)} sign in on {@code jdbc:shardset:remote:} without Avatica's own property
   * names or {@code authentication=BASIC} in the URL.
   */
  @Test void theJdbcUserAndPasswordSignIn() throws Exception {
    addUser(PASSWORD, "alice", "--file", users.toString());
    server = start(ServerSecurity.PLAIN);
    final String url = "jdbc:shardset:remote:url=http://127.0.0.1:" + server.port()
        + ";serialization=protobuf";
    try (Connection alice = DriverManager.getConnection(url, "alice", PASSWORD);
         Statement s = alice.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM CUSTOMERS")) {
      assertTrue(rs.next());
      assertEquals(0, rs.getInt(1));
    }
    final SQLException refused = assertThrows(SQLException.class,
        () -> DriverManager.getConnection(url, "alice", "wrong"));
    assertEquals("08001", refused.getSQLState());
    assertEquals("cannot connect to the ShardSet server at http://127.0.0.1:" + server.port()
        + ": the user name or password was refused (HTTP 401)", refused.getMessage());
    // Avatica's names in the URL win over the fields: the wrong password is not sent.
    try (Connection alice = DriverManager.getConnection(url + ";authentication=BASIC"
        + ";avatica_user=alice;avatica_password=" + PASSWORD, "alice", "wrong");
         Statement s = alice.createStatement()) {
      s.executeQuery("SELECT COUNT(*) FROM CUSTOMERS").close();
    }
  }

  @Test void guessingIsSlowedAndARightPasswordFromAnotherAddressIsNot() throws Exception {
    addUser(PASSWORD, "alice", "--file", users.toString());
    try (CapturedLog log = new CapturedLog()) {
      server = start(ServerSecurity.PLAIN);
      for (int i = 1; i <= 50; i++) {
        assertEquals(401, status("127.0.0.1", "alice", "guess-" + i), "guess " + i);
      }
      final List<Duration> guessing;
      synchronized (waits) {
        guessing = List.copyOf(waits);
      }
      // Each guess past the fifth waits twice as long as the one before, up to 30 s, once
      // for its address before the check and once for its user before the refusal.
      final List<Duration> expected = new ArrayList<>();
      for (int failures = 6; failures <= 50; failures++) {
        if (failures > 6) {
          expected.add(GuessingGuard.Policy.DEFAULT.delay(failures - 1));
        }
        expected.add(GuessingGuard.Policy.DEFAULT.delay(failures));
      }
      assertEquals(expected, guessing);
      assertEquals(Duration.ofMillis(250), guessing.get(0));
      assertEquals(Duration.ofSeconds(30), guessing.get(guessing.size() - 1));
      final String failed = last(log.lines("authentication failed"));
      assertEquals("WARN io.shardset.cli.security.UsersLoginService - authentication failed"
          + " for user 'alice' from 127.0.0.1 (50 failures in a row from the address, 50 for"
          + " the user); the address's next attempt waits 30000 ms",
          failed.substring(failed.indexOf("] ") + 2));
      // The right password from another address: answered, and nothing waited for it.
      assertTrue(status("127.0.0.2", "alice", PASSWORD) != 401);
      synchronized (waits) {
        assertEquals(guessing.size(), waits.size(), "no wait for the other address");
      }
      for (int i = 1; i <= 50; i++) {
        assertFalse(log.text().contains("guess-" + i + "\n") || log.text().contains(
            "guess-" + i + " ") || log.text().contains(PASSWORD), "a password in the log");
      }
    }
  }

  @Test void theAuditTrailHasSessionsRefusalsAndWritesWithLiteralsMasked() throws Exception {
    addUser(PASSWORD, "alice", "--file", users.toString(), "--role", "users,write");
    try (CapturedLog log = new CapturedLog()) {
      server = start(ServerSecurity.PLAIN.withAudit(true));
      try (Connection alice = as("alice", PASSWORD); Statement s = alice.createStatement()) {
        assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (7, 'Ann')"));
        assertEquals(1, s.executeUpdate("UPDATE CUSTOMERS SET NAME = 'Bea' WHERE ID = 7"));
        assertThrows(SQLException.class,
            () -> s.executeUpdate("INSERT INTO CUSTOMERS VALUES (7, 'Cy')"));
      }
      assertThrows(SQLException.class, () -> as("alice", "wrong"));
      final List<String> audit = new ArrayList<>();
      for (String line : log.lines(" io.shardset.audit - ")) {
        audit.add(STATEMENT.matcher(SESSION.matcher(line.substring(line.indexOf(" - ") + 3))
            .replaceAll("session S")).replaceAll("statement N"));
      }
      assertEquals(List.of(
          "session S opened: user 'alice' from 127.0.0.1",
          "write statement N of user 'alice' from 127.0.0.1: ok, 1 rows changed, table"
              + " CUSTOMERS, shards [s0]: INSERT INTO CUSTOMERS VALUES (?, '?')",
          "write statement N of user 'alice' from 127.0.0.1: ok, 1 rows changed, table"
              + " CUSTOMERS, shards [s0]: UPDATE CUSTOMERS SET NAME = '?' WHERE ID = ?",
          "write statement N of user 'alice' from 127.0.0.1: error (SQLState 23505), no rows"
              + " changed, table CUSTOMERS, shards [s0]: INSERT INTO CUSTOMERS VALUES (?, '?')",
          "session S closed (closed by the client): user 'alice' from 127.0.0.1",
          "authentication refused: user 'alice' from 127.0.0.1"), audit);
      assertFalse(String.join("\n", audit).matches("(?s).*(Ann|Bea|'Cy'|" + PASSWORD
          + "|wrong).*"), audit.toString());
    }
  }

  private static String last(List<String> lines) {
    assertFalse(lines.isEmpty());
    return lines.get(lines.size() - 1);
  }

  /** The HTTP status of a request with BASIC credentials, sent from a local address. */
  private int status(String from, String user, String password) throws Exception {
    try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), server.port(),
        InetAddress.getByName(from), 0)) {
      final OutputStream out = socket.getOutputStream();
      out.write(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic "
          + Base64.getEncoder().encodeToString((user + ":" + password)
              .getBytes(StandardCharsets.UTF_8))
          + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      final String response = new String(socket.getInputStream().readAllBytes(),
          StandardCharsets.ISO_8859_1);
      return Integer.parseInt(response.substring(9, 12));
    }
  }
}
