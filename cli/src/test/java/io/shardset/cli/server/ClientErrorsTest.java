package io.shardset.cli.server;

import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.testing.PostgresServer;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaSqlException;
import org.apache.calcite.avatica.remote.Driver;
import org.apache.calcite.avatica.remote.JsonService;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.HttpURLConnection;
import java.net.URI;
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
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQLState and message a client gets for each kind of failure, on {@code jdbc:shardset:}
 * and through a server with either serialization, with Avatica's driver and with ShardSet's
 * ({@code jdbc:shardset:remote:}), on two PostgreSQL shards: the state is the failure's, the
 * reason appears once and the SQL text at most once, the server sends no Java stack traces,
 * and no message holds a shard's password. ShardSet's remote driver gives the message
 * {@code jdbc:shardset:} gives.
 */
class ClientErrorsTest {
  private static final String PASSWORD = "hunter2";
  private static final String READ_ONLY_WRITE = "connection is read-only: cannot write to"
      + " table S.ITEMS";

  /** How a test reaches ShardSet: embedded, or through a server with Avatica's driver or
   * ShardSet's, with either serialization. */
  enum Client {
    EMBEDDED(null, false),
    PROTOBUF(Driver.Serialization.PROTOBUF, false),
    JSON(Driver.Serialization.JSON, false),
    SHARDSET_PROTOBUF(Driver.Serialization.PROTOBUF, true),
    SHARDSET_JSON(Driver.Serialization.JSON, true);

    final Driver.Serialization serialization;
    /** Whether it connects with {@code jdbc:shardset:remote:}. */
    final boolean shardSet;

    Client(Driver.Serialization serialization, boolean shardSet) {
      this.serialization = serialization;
      this.shardSet = shardSet;
    }

    /** Whether the client's messages are Avatica's wording. */
    boolean avatica() {
      return serialization != null && !shardSet;
    }

    String url(ShardSetServer server) {
      return shardSet ? server.jdbcUrl().replace("jdbc:avatica:remote:",
          ShardSetRemoteDriver.CONNECT_STRING_PREFIX) : server.jdbcUrl();
    }
  }

  /** A statement and the state and reason of its failure. */
  record Case(String sql, String state, String reason) {
  }

  private static final List<Case> STATEMENTS = List.of(
      new Case("SELECT * FORM ITEMS", "42000", "Encountered \"ITEMS\" at line 1, column 15."),
      new Case("SELECT ID FROM ITEMS WHERE", "42000",
          "Encountered \"<EOF>\" at line 1, column 26."),
      new Case("SELECT * FROM NOPE", "42S02",
          "From line 1, column 15 to line 1, column 18: Object 'NOPE' not found"),
      new Case("SELECT * FROM S.NOPE", "42S02",
          "From line 1, column 15 to line 1, column 20: Object 'NOPE' not found within 'S'"),
      new Case("SELECT NOPE FROM ITEMS", "42S22", "From line 1, column 8 to line 1, column 11:"
          + " Column 'NOPE' not found in any table"),
      new Case("SELECT I.NOPE FROM ITEMS I", "42S22", "From line 1, column 10 to line 1,"
          + " column 13: Column 'NOPE' not found in table 'I'"),
      new Case("SELECT SUM(ID) FROM ITEMS GROUP BY", "42000",
          "Encountered \"<EOF>\" at line 1, column 34."));

  /** A query whose row with ID 250 divides by zero, in ShardSet's own evaluation. */
  private static final String FAILING_ROW =
      "SELECT ID, 1000 / (ID - 250) AS Q FROM ITEMS ORDER BY ID";

  private static List<String> databases = List.of();
  private static Path folder;
  private static final Map<Driver.Serialization, ShardSetServer> SERVERS =
      new EnumMap<>(Driver.Serialization.class);

  @BeforeAll static void start() throws Exception {
    PostgresServer.require();
    databases = PostgresServer.createDatabases("errors", 2);
    folder = Files.createTempDirectory("client-errors");
    final Path model = writeModel("model.json", databases);
    for (int i = 0; i < databases.size(); i++) {
      try (Connection c = DriverManager.getConnection(PostgresServer.url(databases.get(i)),
          PostgresServer.USER, "");
           Statement s = c.createStatement()) {
        s.execute("INSERT INTO items SELECT n, 0 FROM generate_series(" + (i * 100) + ", "
            + (i == 0 ? 99 : 299) + ") n");
      }
    }
    final Path realm = folder.resolve("realm.properties");
    Files.writeString(realm, "alice: secret,users,write\nnora: norole,users\n");
    for (Driver.Serialization serialization : Driver.Serialization.values()) {
      // Results streamed at the clients' pace, so that a failure after the first frame is a
      // fetch's (read ahead, it is the query's: aFailureReadAheadFailsTheQuery).
      SERVERS.put(serialization, ShardSetServer.start(ServerSettings.loopback(model, 0,
          serialization).withUsers(realm, List.of("users"))
          .withSpooling(ResultSpooling.DEFAULT.streamed())));
    }
  }

  @AfterAll static void stop() throws Exception {
    for (ShardSetServer server : SERVERS.values()) {
      server.close();
    }
    SERVERS.clear();
    PostgresServer.drop(databases);
  }

  /** Creates ITEMS on each database and writes a model over them, the shards with a
   * password (PostgreSQL's trust authentication ignores it) that no message may show. */
  private static Path writeModel(String name, List<String> shards)
      throws SQLException, IOException {
    final List<String> json = new ArrayList<>();
    for (int i = 0; i < shards.size(); i++) {
      try (Connection c = DriverManager.getConnection(PostgresServer.url(shards.get(i)),
          PostgresServer.USER, "");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS items (id BIGINT PRIMARY KEY, v INT)");
      }
      json.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + PostgresServer.url(shards.get(i))
          + "\", \"jdbcUser\": \"postgres\", \"jdbcPassword\": \"" + PASSWORD + "\","
          + " \"jdbcSchema\": \"public\", \"connectTimeout\": 500}");
    }
    final Path model = folder.resolve(name);
    Files.writeString(model, "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{"
        + "\"name\": \"S\", \"type\": \"custom\", \"factory\":"
        + " \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {\"shards\": ["
        + String.join(",", json) + "], \"tables\": [{\"name\": \"ITEMS\", \"physicalName\":"
        + " \"items\", \"method\": \"range\", \"shardKey\": \"ID\", \"shards\": [\"s0\","
        + " \"s1\"], \"ranges\": [{\"shard\": \"s0\", \"to\": 100}, {\"shard\": \"s1\","
        + " \"from\": 100}]}]}}]}");
    return model;
  }

  private static Connection connect(Client client, String user, String password, Path model)
      throws SQLException {
    if (client == Client.EMBEDDED) {
      final Properties info = new Properties();
      info.setProperty("model", model.toString());
      return DriverManager.getConnection("jdbc:shardset:", info);
    }
    return DriverManager.getConnection(client.url(SERVERS.get(client.serialization))
        + ";avatica_user=" + user
        + ";avatica_password=" + password);
  }

  private static Connection connect(Client client) throws SQLException {
    return connect(client, "alice", "secret", folder.resolve("model.json"));
  }

  static Stream<Arguments> statements() {
    return Stream.of(Client.values())
        .flatMap(client -> STATEMENTS.stream().map(c -> Arguments.of(client, c)));
  }

  /** Executing the statement fails with its state, and a message that holds the reason and
   * the SQL text once. */
  @ParameterizedTest @MethodSource("statements")
  void executeFailsWithTheStateAndReason(Client client, Case c) throws SQLException {
    try (Connection connection = connect(client); Statement s = connection.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(c.sql()));
      assertFailure(client, c.state(), executed(client, c.sql(), c.state(), c.reason()),
          c.reason(), e);
    }
  }

  /** Preparing it fails with its state; Avatica's client words the message of a remote
   * failure itself, without the reason, which it keeps as the server's "stack trace";
   * ShardSet's gives the reason. */
  @ParameterizedTest @MethodSource("statements")
  void prepareFailsWithTheStateAndReason(Client client, Case c) throws SQLException {
    try (Connection connection = connect(client)) {
      final SQLException e = assertThrows(SQLException.class,
          () -> connection.prepareStatement(c.sql()));
      assertFailure(client, c.state(), client.avatica()
          ? "Error 0 (" + c.state() + ") : while preparing SQL: " + c.sql() : c.reason(),
          c.reason(), e);
    }
  }

  /**
   * A query whose rows fail after the first ones fails in {@code ResultSet.next()}, with the
   * state and reason an embedded client gets: through a server, in a fetch after the first
   * frame. Avatica's driver throws its unchecked exception there, with the server's state.
   */
  @ParameterizedTest @EnumSource(Client.class)
  void aFetchFailsWithTheStateAndReason(Client client) throws SQLException {
    try (Connection connection = connect(client); Statement s = connection.createStatement()) {
      final List<Long> read = new ArrayList<>();
      final Exception e = readFailingRows(s, read);
      // The row before the failing one was read: the failure is the fetch's.
      assertTrue(read.size() > 200, "failed before its first rows: " + read);
      assertUncheckedOnAvatica(client, "22012", "/ by zero", e);
    }
  }

  /**
   * A result read ahead of its client (the server's default) fails with the shards' state and
   * reason at a fetch after its first frame, as a streamed one does (the rows read ahead in
   * the frame of 1,000 that failed are not sent).
   */
  @Test void aFailureReadAheadFailsTheFetchThatReachesIt() throws Exception {
    try (ShardSetServer server = ShardSetServer.start(ServerSettings.loopback(
            folder.resolve("model.json"), 0, Driver.Serialization.PROTOBUF));
         Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      final List<Long> read = new ArrayList<>();
      final Exception e = readFailingRows(s, read);
      assertTrue(read.size() > 0, "failed before its first frame");
      assertUncheckedOnAvatica(Client.PROTOBUF, "22012", "/ by zero", e);
    }
  }

  /**
   * Reads {@link #FAILING_ROW} in fetches of 10 rows into {@code read} until it fails; returns
   * the failure.
   */
  private static Exception readFailingRows(Statement s, List<Long> read) throws SQLException {
    s.setFetchSize(10);
    return assertThrows(Exception.class, () -> {
      try (ResultSet rs = s.executeQuery(FAILING_ROW)) {
        while (rs.next()) {
          read.add(rs.getLong(1));
        }
      }
    });
  }

  /** A user without the role {@code write} lacks a privilege (42501); a user who made the
   * connection read-only gets 25006; embedded connections have no users. */
  @ParameterizedTest @EnumSource(Client.class)
  void writesRefusedByRoleOrByReadOnlyConnection(Client client) throws SQLException {
    final String insert = "INSERT INTO ITEMS VALUES (1, 2)";
    try (Connection alice = connect(client)) {
      alice.setReadOnly(true);
      try (Statement s = alice.createStatement()) {
        final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(insert));
        assertFailure(client, "25006", executed(client, insert, "25006", READ_ONLY_WRITE),
            READ_ONLY_WRITE, e);
      }
    }
    if (client == Client.EMBEDDED) {
      return;
    }
    final String denied = "user nora has no role 'write' (or has the role 'read'): cannot write"
        + " to table S.ITEMS";
    try (Connection nora = connect(client, "nora", "norole", folder.resolve("model.json"));
         Statement s = nora.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(insert));
      assertFailure(client, "42501", executed(client, insert, "42501", denied), denied, e);
      try (PreparedStatement p = nora.prepareStatement("INSERT INTO ITEMS VALUES (?, ?)")) {
        p.setLong(1, 1);
        p.setInt(2, 2);
        final SQLException prepared = assertThrows(SQLException.class, p::executeUpdate);
        assertFailure(client, "42501", client.avatica()
            ? "Error 0 (42501) : Remote driver error: " + denied : denied, denied, prepared);
        p.addBatch();
        final SQLException batch = assertThrows(SQLException.class, p::executeBatch);
        assertFailure(client, "42501", client.avatica()
            ? "Error 0 (42501) : Remote driver error: " + denied : denied, denied, batch);
      }
      s.addBatch(insert);
      assertUncheckedOnAvatica(client, "42501", denied,
          assertThrows(Exception.class, s::executeBatch));
    }
  }

  /**
   * A scan of a shard that is down fails naming the shard: 08006 while the pool still hands
   * out connections the shard ended, then 08001 once no connection can be opened.
   */
  @ParameterizedTest @EnumSource(Client.class)
  void aScanOfAShardThatIsDownNamesIt(Client client) throws Exception {
    final List<String> own = PostgresServer.createDatabases("down", 2);
    final Path model = writeModel("down-" + client + ".json", own);
    final ShardSetServer server = client == Client.EMBEDDED ? null
        : ShardSetServer.start(ServerSettings.loopback(model, 0, client.serialization));
    try (Connection c = client == Client.EMBEDDED ? connect(client, "", "", model)
            : DriverManager.getConnection(client.url(server));
         Statement s = c.createStatement()) {
      s.executeQuery("SELECT * FROM ITEMS").close();
      try (Connection admin = PostgresServer.admin(); Statement a = admin.createStatement()) {
        a.execute("ALTER DATABASE " + own.get(1) + " ALLOW_CONNECTIONS false");
        a.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
            + own.get(1) + "'");
      }
      final String sql = "SELECT * FROM ITEMS";
      final String ended = "shard 's1' failed: FATAL: terminating connection due to"
          + " administrator command";
      final Pattern unreachable = Pattern.compile(Pattern.quote("shard 's1' failed: shardset-s1"
          + " - Connection is not available, request timed out after ") + "\\d+"
          + Pattern.quote("ms (total=0, active=0, idle=0, waiting=0); last connection failure:"
          + " FATAL: database \"" + own.get(1) + "\" is not currently accepting connections"));
      // Each connection the shard ended fails one query; the pool holds at most ten.
      for (int attempt = 0; ; attempt++) {
        assertTrue(attempt < 12, "still no 08001 after " + attempt + " queries");
        final SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(sql));
        if ("08006".equals(e.getSQLState())) {
          assertFailure(client, "08006", executed(client, sql, "08006", ended), ended, e);
          continue;
        }
        assertEquals("08001", e.getSQLState(), e.getMessage());
        final String reason = e.getMessage().substring(e.getMessage().indexOf("shard 's1'"));
        assertTrue(unreachable.matcher(reason).matches(), reason);
        assertFailure(client, "08001", executed(client, sql, "08001", reason), reason, e);
        break;
      }
    } finally {
      if (server != null) {
        server.close();
      }
      PostgresServer.drop(own);
    }
  }

  /**
   * A statement out of time fails with 57014 naming the shard it waited for, whether the
   * failure surfaces in {@code executeQuery} or in {@code next()}, and names the timeout the
   * statement set. On {@code jdbc:shardset:} here; RemoteTimeoutTest has remote timeouts.
   */
  @Test void aStatementOutOfTimeIsCanceled() throws Exception {
    try (Connection lock = DriverManager.getConnection(PostgresServer.url(databases.get(0)),
        PostgresServer.USER, "")) {
      lock.setAutoCommit(false);
      try (Statement l = lock.createStatement()) {
        l.execute("LOCK TABLE items IN ACCESS EXCLUSIVE MODE");
      }
      try (Connection c = connect(Client.EMBEDDED); Statement s = c.createStatement()) {
        s.setQueryTimeout(1);
        final SQLException e = assertThrows(SQLException.class, () -> {
          try (ResultSet rs = s.executeQuery("SELECT * FROM ITEMS")) {
            while (rs.next()) {
              rs.getObject(1);
            }
          }
        });
        assertEquals("57014", e.getSQLState(), e.getMessage());
        // ShardSet's watch or the shard driver's own timer, whichever comes first, stops it.
        assertTrue(Pattern.matches("shard 's0' failed: query timeout of 1 s elapsed"
            + "( \\(ERROR: canceling statement due to user request\\))?", e.getMessage()),
            e.getMessage());
      } finally {
        lock.rollback();
      }
    }
  }

  /**
   * A constant divided by zero fails in the static initialiser of the plan's generated code:
   * every run fails with 22012 and the reason, not only the first (the plan is cached, and a
   * later run would find its class unusable), a prepared statement run again too, and the
   * connection still runs other statements.
   */
  @ParameterizedTest @EnumSource(Client.class)
  void aDivisionByZeroFailsAlikeEveryTime(Client client) throws SQLException {
    final String sql = "SELECT 1/0 FROM ITEMS";
    final String reason = "/ by zero";
    try (Connection c = connect(client);
         PreparedStatement prepared = c.prepareStatement(sql)) {
      for (int i = 0; i < 3; i++) {
        try (Statement s = c.createStatement()) {
          final SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(sql));
          assertFailure(client, "22012", executed(client, sql, "22012", reason), reason, e);
        }
        final SQLException e = assertThrows(SQLException.class, prepared::executeQuery);
        assertFailure(client, "22012", client.avatica()
            ? "Error 0 (22012) : Remote driver error: " + reason : reason, reason, e);
      }
      try (Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ITEMS WHERE ID < 0")) {
        assertTrue(rs.next());
        assertEquals(0, rs.getLong(1));
      }
    }
  }

  /** A request the server cannot read gets an error without the server's stack traces. */
  @ParameterizedTest @EnumSource(value = Client.class, names = {"PROTOBUF", "JSON"})
  void anUnreadableRequestGetsNoStackTrace(Client client) throws Exception {
    final HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:"
        + SERVERS.get(client.serialization).port() + "/").toURL().openConnection();
    http.setRequestMethod("POST");
    http.setDoOutput(true);
    http.setRequestProperty("Authorization", "Basic " + Base64.getEncoder()
        .encodeToString("alice:secret".getBytes(StandardCharsets.UTF_8)));
    // Cut short: neither JSON nor protobuf.
    http.getOutputStream().write("{\"request\": \"nonsense\"".getBytes(StandardCharsets.UTF_8));
    final int status = http.getResponseCode();
    final byte[] body = http.getErrorStream().readAllBytes();
    assertEquals(500, status);
    final Service.ErrorResponse error = (Service.ErrorResponse) (client == Client.JSON
        ? JsonService.MAPPER.readValue(body, Service.Response.class)
        : new ProtobufTranslationImpl().parseResponse(body));
    assertTrue(error.errorMessage.startsWith(client == Client.JSON
        ? "JsonEOFException: Unexpected end-of-input" : "InvalidProtocolBufferException"),
        error.errorMessage);
    assertEquals(List.of(error.errorMessage), error.exceptions);
  }

  /** The message of a failed execution: the reason on {@code jdbc:shardset:} and
   * {@code jdbc:shardset:remote:}; Avatica's remote client puts the state and the SQL text in
   * front, and says where the reason comes from. */
  private static String executed(Client client, String sql, String state, String reason) {
    return !client.avatica() ? reason : "Error 0 (" + state + ") : Error while"
        + " executing SQL \"" + sql + "\": Remote driver error: " + reason;
  }

  /**
   * The failure of a call that Avatica's driver lets through as its unchecked exception (a
   * fetch, a statement's batch) and the others throw as an SQLException whose message is the
   * reason.
   */
  private static void assertUncheckedOnAvatica(Client client, String state, String reason,
      Exception e) {
    if (!client.avatica()) {
      assertFailure(client, state, reason, reason, assertInstanceOf(SQLException.class, e));
      return;
    }
    final AvaticaClientRuntimeException remote =
        assertInstanceOf(AvaticaClientRuntimeException.class, e);
    assertEquals(state, remote.getSqlState());
    assertEquals("Remote driver error: " + reason, remote.getMessage());
    assertEquals(List.of(reason), remote.getServerExceptions());
  }

  private static void assertFailure(Client client, String state, String message, String reason,
      SQLException e) {
    assertEquals(state, e.getSQLState(), e.getMessage());
    assertEquals(message, e.getMessage());
    assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
    if (client == Client.EMBEDDED) {
      // What failed stays the cause, for the application's log.
      assertTrue(e.getCause() != null, "no cause");
    } else {
      // The server's "stack traces" are the reason alone, never a Java trace, never null;
      // ShardSet's driver keeps the server's error, with its state and code, as the cause.
      final AvaticaSqlException remote = (AvaticaSqlException) (client.shardSet
          ? e.getCause() : e);
      assertEquals(state, remote.getSQLState());
      assertEquals(e.getErrorCode(), remote.getErrorCode());
      assertEquals(List.of(reason), remote.getStackTraces());
      final StringWriter printed = new StringWriter();
      remote.printStackTrace(new PrintWriter(printed));
      assertTrue(printed.toString().endsWith(reason + System.lineSeparator())
          || printed.toString().endsWith(reason), printed.toString());
    }
  }
}
