package io.shardset.cli;

import io.shardset.calcite.ShardTable;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.execution.ShardPools;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import picocli.CommandLine;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Serves a model of in-memory H2 shards over Avatica and queries it with the remote driver. */
class ShardSetServerTest {
  private static final String MODEL = "\"chunks\": 60, \"tables\": ["
      + "{\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]},"
      + "{\"name\": \"ORDERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"CUSTOMER_ID\"]}]";
  private static final String CUSTOMERS_DDL = "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(20) NOT NULL, REGION CHAR(2))";
  private static final String ORDERS_DDL = "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY,"
      + " CUSTOMER_ID BIGINT NOT NULL, ORDER_DATE DATE NOT NULL, TOTAL DECIMAL(12, 2) NOT NULL)";

  private static final List<String> QUERIES = List.of(
      "SELECT COUNT(*), SUM(TOTAL) FROM ORDERS",
      "SELECT ID, ORDER_DATE, TOTAL FROM ORDERS WHERE CUSTOMER_ID = 7 ORDER BY ID",
      "SELECT c.REGION, COUNT(*) AS N, SUM(o.TOTAL) AS T FROM CUSTOMERS c"
          + " JOIN ORDERS o ON o.CUSTOMER_ID = c.ID GROUP BY c.REGION ORDER BY c.REGION",
      "SELECT ID, NAME FROM CUSTOMERS WHERE REGION = 'EU' ORDER BY NAME DESC LIMIT 3");

  @TempDir Path folder;
  private H2Shards shards;
  private ShardSetServer server;

  @BeforeEach void createShards() throws Exception {
    shards = H2Shards.create(folder, 3, MODEL, CUSTOMERS_DDL, ORDERS_DDL);
    final List<String> customers = new ArrayList<>(List.of("ID,NAME,REGION"));
    for (int i = 1; i <= 40; i++) {
      customers.add(i + ",Customer " + i + "," + (i % 3 == 0 ? "EU" : i % 3 == 1 ? "US" : ""));
    }
    final List<String> orders = new ArrayList<>(List.of("ID,CUSTOMER_ID,ORDER_DATE,TOTAL"));
    for (int i = 1; i <= 300; i++) {
      orders.add(i + "," + (i % 40 + 1) + ",2024-01-" + (10 + i % 20) + "," + i + ".25");
    }
    load("CUSTOMERS", customers);
    load("ORDERS", orders);
  }

  private void load(String table, List<String> lines) throws IOException {
    final Path csv = folder.resolve(table + ".csv");
    Files.write(csv, lines, StandardCharsets.UTF_8);
    final int code = ShardSetCli.commandLine().execute("load", "--model",
        shards.modelFile().toString(), "--table", table, csv.toString());
    assertEquals(0, code, "loading " + table);
  }

  @AfterEach void stop() throws SQLException {
    if (server != null) {
      server.close();
    }
    shards.close();
  }

  private ServerSettings loopback(Driver.Serialization serialization) {
    return ServerSettings.loopback(shards.modelFile(), 0, serialization);
  }

  private Connection remote() throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl());
  }

  private static List<String> query(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return H2Shards.rows(rs);
    }
  }

  @ParameterizedTest @EnumSource(Driver.Serialization.class)
  void remoteQueriesGiveTheRowsOfInProcessOnes(Driver.Serialization serialization)
      throws Exception {
    server = ShardSetServer.start(loopback(serialization));
    try (Connection local = ShardSchemas.connect(shards.modelFile().toFile());
         Connection remote = remote()) {
      for (String sql : QUERIES) {
        assertEquals(query(local, sql), query(remote, sql), sql);
      }
      assertEquals(List.of("300|45225.00"), query(remote, QUERIES.get(0)));
      assertEquals(List.of("6|2024-01-16|6.25", "46|2024-01-16|46.25", "86|2024-01-16|86.25",
          "126|2024-01-16|126.25", "166|2024-01-16|166.25", "206|2024-01-16|206.25",
          "246|2024-01-16|246.25", "286|2024-01-16|286.25"), query(remote, QUERIES.get(1)));
      try (PreparedStatement p = remote.prepareStatement(
          "SELECT NAME FROM CUSTOMERS WHERE ID = ?")) {
        p.setLong(1, 12);
        try (ResultSet rs = p.executeQuery()) {
          assertEquals(List.of("Customer 12"), H2Shards.rows(rs));
        }
      }
    }
  }

  /** INSERTs through the server write each row to its shard, with exact counts; a failed
   * one writes nothing and says why. */
  @Test void remoteInsertsWriteThroughTheShards() throws Exception {
    server = ShardSetServer.start(loopback(Driver.Serialization.PROTOBUF));
    try (Connection remote = remote(); Statement s = remote.createStatement()) {
      assertEquals(2, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (41, 'New 41', 'EU'),"
          + " (42, 'New 42', NULL)"));
      try (PreparedStatement p = remote.prepareStatement(
          "INSERT INTO CUSTOMERS VALUES (?, ?, ?)")) {
        p.setLong(1, 43);
        p.setString(2, "New 43");
        p.setString(3, "US");
        assertEquals(1, p.executeUpdate());
      }
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "INSERT INTO CUSTOMERS VALUES (44, 'New 44', 'EU'), (41, 'Again 41', 'EU')"));
      assertTrue(e.getMessage().contains("table S.CUSTOMERS: shard '"), e.getMessage());
      assertEquals(List.of("43"), query(remote, "SELECT COUNT(*) FROM CUSTOMERS"));
      assertEquals(List.of("41|New 41|EU", "42|New 42|null", "43|New 43|US"), query(remote,
          "SELECT ID, NAME, REGION FROM CUSTOMERS WHERE ID > 40 ORDER BY ID"));
    }
  }

  @Test void metadataShowsTheLogicalTablesAndTheirColumns() throws Exception {
    server = ShardSetServer.start(loopback(Driver.Serialization.PROTOBUF));
    try (Connection remote = remote()) {
      final DatabaseMetaData md = remote.getMetaData();
      try (ResultSet rs = md.getTables(null, "S", "%", new String[] {"TABLE"})) {
        final List<String> tables = new ArrayList<>();
        while (rs.next()) {
          tables.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + ":"
              + rs.getString("TABLE_TYPE"));
        }
        assertEquals(List.of("S.CUSTOMERS:TABLE", "S.ORDERS:TABLE"), tables);
      }
      try (ResultSet rs = md.getColumns(null, "S", "ORDERS", "%")) {
        final List<String> columns = new ArrayList<>();
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("DATA_TYPE") + ":"
              + rs.getString("TYPE_NAME") + ":" + rs.getInt("NULLABLE"));
        }
        assertEquals(List.of("ID:-5:BIGINT:0", "CUSTOMER_ID:-5:BIGINT:0",
            "ORDER_DATE:91:DATE:0", "TOTAL:3:DECIMAL:0"), columns);
      }
      try (ResultSet rs = md.getSchemas()) {
        final List<String> schemas = new ArrayList<>();
        while (rs.next()) {
          schemas.add(rs.getString("TABLE_SCHEM"));
        }
        assertEquals(List.of("S", "SHARDSET", "metadata"), schemas);
      }
      try (ResultSet rs = md.getTypeInfo()) {
        final List<String> types = new ArrayList<>();
        while (rs.next()) {
          types.add(rs.getString("TYPE_NAME"));
        }
        assertTrue(types.containsAll(List.of("BIGINT", "DECIMAL", "VARCHAR", "DATE")),
            types::toString);
      }
    }
  }

  @Test void clientPropertiesCannotReplaceTheModel() throws Exception {
    server = ShardSetServer.start(loopback(Driver.Serialization.PROTOBUF));
    final Properties info = new Properties();
    info.setProperty("model", "inline:{\"version\": \"1.0\", \"defaultSchema\": \"EVIL\","
        + " \"schemas\": [{\"name\": \"EVIL\", \"tables\": [{\"name\": \"V\", \"type\": \"view\","
        + " \"sql\": \"VALUES 1\"}]}]}");
    info.setProperty("schema", "EVIL");
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl(), info)) {
      final List<String> schemas = new ArrayList<>();
      try (ResultSet rs = remote.getMetaData().getSchemas()) {
        while (rs.next()) {
          schemas.add(rs.getString("TABLE_SCHEM"));
        }
      }
      assertEquals(List.of("S", "SHARDSET", "metadata"), schemas);
      assertEquals(List.of("300"), query(remote, "SELECT COUNT(*) FROM ORDERS"));
    }
  }

  private ServerSettings withAlice() throws IOException {
    final Path realm = folder.resolve("realm.properties");
    Files.writeString(realm, "alice: secret,users\nbob: builder,guests\n");
    return loopback(Driver.Serialization.PROTOBUF).withUsers(realm, List.of("users"));
  }

  private int post(String user, String password) throws IOException {
    final HttpURLConnection http = (HttpURLConnection) URI.create(
        "http://127.0.0.1:" + server.port() + "/").toURL().openConnection();
    http.setRequestMethod("POST");
    http.setDoOutput(true);
    http.setRequestProperty("Authorization", "Basic " + Base64.getEncoder().encodeToString(
        (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    try (OutputStream body = http.getOutputStream()) {
      body.write("{\"request\": \"getCatalogs\", \"connectionId\": \"x\"}"
          .getBytes(StandardCharsets.UTF_8));
    }
    try {
      return http.getResponseCode();
    } finally {
      http.disconnect();
    }
  }

  @Test void authenticationRefusesWrongCredentials() throws Exception {
    server = ShardSetServer.start(withAlice());
    assertEquals(401, post("alice", "wrong"));
    assertEquals(401, post("mallory", "secret"));
    assertEquals(403, post("bob", "builder"));
    // Avatica's HTTP client reports a refusal as an unchecked exception.
    final RuntimeException refused = assertThrows(RuntimeException.class,
        () -> DriverManager.getConnection(server.jdbcUrl()
            + ";avatica_user=alice;avatica_password=wrong"));
    assertEquals("Failed to execute HTTP Request, got HTTP/401", refused.getMessage());
    try (Connection alice = DriverManager.getConnection(server.jdbcUrl()
        + ";avatica_user=alice;avatica_password=secret")) {
      assertEquals(List.of("300"), query(alice, "SELECT COUNT(*) FROM ORDERS"));
    }
  }

  @Test void nonLoopbackAddressNeedsUsers() {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CommandLine cli = ShardSetCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    final int code = cli.execute("server", "--model", shards.modelFile().toString(),
        "--port", "0", "--bind", "0.0.0.0");
    assertEquals(1, code);
    assertEquals("server failed to start: refusing to serve on 0.0.0.0 without"
        + " authentication: only a loopback address may go without --users (a realm"
        + " properties file of 'name: password,role' lines)" + System.lineSeparator(),
        err.toString());
    assertEquals("", out.toString());
  }

  @Test void aPortInUseIsNamed() throws Exception {
    server = ShardSetServer.start(loopback(Driver.Serialization.PROTOBUF));
    final ServerSettings again = ServerSettings.loopback(shards.modelFile(), server.port(),
        Driver.Serialization.PROTOBUF);
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ShardSetServer.start(again));
    assertEquals("cannot listen on 127.0.0.1:" + server.port() + ": Failed to bind to /"
        + "127.0.0.1:" + server.port(), e.getMessage());
  }

  @Test void serializationIsProtobufOrJson() {
    final StringWriter err = new StringWriter();
    final CommandLine cli = ShardSetCli.commandLine();
    cli.setErr(new PrintWriter(err, true));
    assertEquals(2, cli.execute("server", "--model", shards.modelFile().toString(),
        "--serialization", "xml"));
    assertEquals("Invalid value for option '--serialization': serialization must be protobuf"
        + " or json: 'xml'", err.toString().lines().findFirst().orElse(""));
  }

  @Test void concurrentClientsGetTheirRowsAndReturnEveryShardConnection() throws Exception {
    server = ShardSetServer.start(loopback(Driver.Serialization.PROTOBUF));
    final List<String> expected;
    try (Connection local = ShardSchemas.connect(shards.modelFile().toFile())) {
      expected = new ArrayList<>();
      for (String sql : QUERIES) {
        expected.add(sql + " -> " + query(local, sql));
      }
    }
    final int clients = 32;
    final ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      final List<Future<List<String>>> results = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        results.add(pool.submit(() -> {
          final List<String> got = new ArrayList<>();
          try (Connection remote = remote()) {
            for (String sql : QUERIES) {
              got.add(sql + " -> " + query(remote, sql));
            }
          }
          return got;
        }));
      }
      for (Future<List<String>> result : results) {
        assertEquals(expected, result.get());
      }
    } finally {
      pool.shutdown();
    }
    int active = 0;
    for (String name : List.of("CUSTOMERS", "ORDERS")) {
      final ShardTable table = shards.table(name);
      for (int i = 0; i < table.shardCount(); i++) {
        active += ShardPools.activeConnections(table.site(i).endpoint());
      }
    }
    assertEquals(0, active);
  }
}
