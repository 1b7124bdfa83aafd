package io.shardset.clients;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.remote.Driver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.UUID;

/**
 * A small sharded model for the client tests: three in-memory H2 shards holding CUSTOMERS
 * (hashed on ID), ORDERS (hashed on CUSTOMER_ID, so co-located) and REGIONS (duplicated), and
 * one unsharded H2 database holding the same rows, the reference the tests compare with. The
 * rows are written through ShardSet itself, so they sit where its routing puts them.
 */
final class ShardedFixture implements AutoCloseable {
  /** The logical schema's name. */
  static final String SCHEMA = "S";
  /** The logical tables, in the order metadata lists them. */
  static final List<String> TABLES = List.of("CUSTOMERS", "ORDERS", "REGIONS");
  /** Rows of CUSTOMERS and ORDERS the fixture holds. */
  static final int CUSTOMERS = 40;
  static final int ORDERS = 120;
  static final int REGIONS = 3;

  private static final int SHARDS = 3;
  private static final List<String> DDL = List.of(
      "CREATE TABLE REGIONS (CODE CHAR(2) PRIMARY KEY, NAME VARCHAR(20) NOT NULL)",
      "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY, NAME VARCHAR(40) NOT NULL,"
          + " REGION CHAR(2), SIGNUP DATE NOT NULL)",
      "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT NOT NULL,"
          + " ORDERED_AT TIMESTAMP(3) NOT NULL, TOTAL DECIMAL(12, 2) NOT NULL,"
          + " STATUS VARCHAR(10))");
  private static final String TABLES_JSON = "\"chunks\": 60, \"tables\": ["
      + "{\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]},"
      + "{\"name\": \"ORDERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"CUSTOMER_ID\"]},"
      + "{\"name\": \"REGIONS\", \"method\": \"duplicated\"}]";

  private final String group = "clients_" + UUID.randomUUID().toString().replace("-", "");
  private final List<Connection> keepAlive = new ArrayList<>();
  private final Path modelFile;
  private ShardSetServer server;

  private ShardedFixture(Path folder) {
    this.modelFile = folder.resolve("model.json");
  }

  /** Creates the shards and the reference database, writes the model into {@code folder} and
   * loads the same rows into both. */
  static ShardedFixture create(Path folder) throws SQLException, IOException {
    final ShardedFixture fixture = new ShardedFixture(folder);
    fixture.createDatabases();
    fixture.load();
    return fixture;
  }

  private String shardUrl(int shard) {
    return "jdbc:h2:mem:" + group + "_s" + shard + ";DB_CLOSE_DELAY=-1";
  }

  /** The unsharded H2 database holding the same rows. */
  String referenceUrl() {
    // Its tables in a schema named as the logical one, so that qualified names work on both.
    return "jdbc:h2:mem:" + group + "_ref;DB_CLOSE_DELAY=-1;INIT=CREATE SCHEMA IF NOT EXISTS "
        + SCHEMA + "\\;SET SCHEMA " + SCHEMA;
  }

  private void createDatabases() throws SQLException, IOException {
    final StringJoiner shards = new StringJoiner(", ", "[", "]");
    for (int i = 0; i <= SHARDS; i++) {
      final String url = i < SHARDS ? shardUrl(i) : referenceUrl();
      final Connection c = DriverManager.getConnection(url, "sa", "");
      keepAlive.add(c);
      try (Statement s = c.createStatement()) {
        for (String sql : DDL) {
          s.execute(sql);
        }
      }
      if (i < SHARDS) {
        shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + url
            + "\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\"}");
      }
    }
    Files.writeString(modelFile, "{\"version\": \"1.0\", \"defaultSchema\": \"" + SCHEMA
        + "\", \"schemas\": [{\"name\": \"" + SCHEMA + "\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {"
        + "\"shards\": " + shards + ", " + TABLES_JSON + "}}]}", StandardCharsets.UTF_8);
  }

  /** The rows, as one INSERT per table that both ShardSet and H2 run. */
  static List<String> inserts() {
    final StringJoiner customers = new StringJoiner(", ", "INSERT INTO CUSTOMERS VALUES ", "");
    final String[] regions = {"EU", "US", "AP"};
    for (int i = 1; i <= CUSTOMERS; i++) {
      final String region = i % 7 == 0 ? "NULL" : "'" + regions[i % 3] + "'";
      customers.add("(" + i + ", 'Customer " + i + "', " + region + ", DATE '2024-0"
          + (1 + i % 9) + "-" + (10 + i % 18) + "')");
    }
    final StringJoiner orders = new StringJoiner(", ", "INSERT INTO ORDERS VALUES ", "");
    final String[] statuses = {"NEW", "PAID", "SHIPPED", "CANCELLED"};
    for (int i = 1; i <= ORDERS; i++) {
      orders.add("(" + i + ", " + (1 + i % CUSTOMERS) + ", TIMESTAMP '2024-03-" + (10 + i % 19)
          + " 1" + i % 10 + ":" + (10 + i % 50) + ":05.125', " + (i * 7 % 500) + "."
          + (10 + i % 90) + ", " + (i % 11 == 0 ? "NULL" : "'" + statuses[i % 4] + "'") + ")");
    }
    return List.of("INSERT INTO REGIONS VALUES ('EU', 'Europe'), ('US', 'United States'),"
        + " ('AP', 'Asia Pacific')", customers.toString(), orders.toString());
  }

  private void load() throws SQLException {
    try (Connection shardset = embedded(); Statement s = shardset.createStatement();
         Statement reference = keepAlive.get(SHARDS).createStatement()) {
      for (String sql : inserts()) {
        s.executeUpdate(sql);
        reference.executeUpdate(sql);
      }
    }
  }

  /** The URL of ShardSet's embedded driver over this model. */
  String embeddedUrl() {
    return "jdbc:shardset:model=" + modelFile.toAbsolutePath();
  }

  Connection embedded() throws SQLException {
    return DriverManager.getConnection(embeddedUrl());
  }

  /** Starts (once) a server on a free loopback port serving the model with protobuf. */
  ShardSetServer server() throws SQLException {
    if (server == null) {
      server = ShardSetServer.start(ServerSettings.loopback(modelFile, 0,
          Driver.Serialization.PROTOBUF));
    }
    return server;
  }

  /** The URL of ShardSet's remote driver to the running server. */
  String remoteUrl() throws SQLException {
    return server().jdbcUrl().replace("jdbc:avatica:remote:", "jdbc:shardset:remote:");
  }

  /** The URL of Avatica's own remote driver to the running server. */
  String avaticaUrl() throws SQLException {
    return server().jdbcUrl();
  }

  Connection reference() throws SQLException {
    return DriverManager.getConnection(referenceUrl(), "sa", "");
  }

  /** The rows of a query on the reference database, as {@link ShardFixture#rows} gives them. */
  List<String> expected(String sql) throws SQLException {
    return ShardFixture.rows(keepAlive.get(SHARDS), sql);
  }

  @Override public void close() throws SQLException {
    if (server != null) {
      server.close();
    }
    for (Connection c : keepAlive) {
      try (Statement s = c.createStatement()) {
        s.execute("SHUTDOWN");
      }
      c.close();
    }
  }
}
