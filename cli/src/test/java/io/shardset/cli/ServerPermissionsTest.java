package io.shardset.cli;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
 * Who may write through a server: users with the role {@code write} get writable connections,
 * every other user read-only ones (whose writes ShardSet refuses with SQLState 25006) that
 * stay read-only when they ask otherwise, and {@code --read-only} makes every connection read-only.
 */
class ServerPermissionsTest {
  private static final String MODEL = "\"chunks\": 60, \"tables\": ["
      + "{\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";
  private static final String CUSTOMERS_DDL = "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(20) NOT NULL)";
  private static final String INSERT = "INSERT INTO CUSTOMERS VALUES (1, 'Ann')";

  @TempDir Path folder;
  private H2Shards shards;
  private ShardSetServer server;

  @BeforeEach void createShards() throws Exception {
    shards = H2Shards.create(folder, 2, MODEL, CUSTOMERS_DDL);
  }

  @AfterEach void stop() throws SQLException {
    if (server != null) {
      server.close();
    }
    shards.close();
  }

  private ServerSettings withUsers() throws Exception {
    final Path realm = folder.resolve("realm.properties");
    Files.writeString(realm, "alice: secret,users,write\nrita: reader,users,read\n"
        + "nora: norole,users\n");
    return ServerSettings.loopback(shards.modelFile(), 0, Driver.Serialization.PROTOBUF)
        .withUsers(realm, List.of("users"));
  }

  private Connection as(String user, String password) throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl() + ";avatica_user=" + user
        + ";avatica_password=" + password);
  }

  private static long count(Connection connection) throws SQLException {
    return Long.parseLong(H2Shards.rows(connection.createStatement()
        .executeQuery("SELECT COUNT(*) FROM CUSTOMERS")).get(0));
  }

  private static int insert(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement()) {
      return s.executeUpdate(INSERT);
    }
  }

  /** Checks that a write through the connection is refused as a read-only one's, and that
   * nothing reached the shards. */
  private void refusesWrites(Connection connection) throws SQLException {
    final long before = count(connection);
    final SQLException e = assertThrows(SQLException.class, () -> insert(connection));
    assertEquals("25006", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(
        "connection is read-only: cannot write to table S.CUSTOMERS"), e.getMessage());
    assertEquals(before, count(connection));
  }

  /** Asks to make the connection writable, and checks that it stays read-only and usable. */
  private void staysReadOnly(Connection connection) throws SQLException {
    connection.setReadOnly(false);
    assertTrue(connection.isReadOnly());
    count(connection);
    assertTrue(connection.isReadOnly());
    refusesWrites(connection);
  }

  @Test void readRoleGetsAReadOnlyConnectionItCannotMakeWritable() throws Exception {
    server = ShardSetServer.start(withUsers());
    try (Connection rita = as("rita", "reader")) {
      assertTrue(rita.isReadOnly());
      assertEquals(0, count(rita));
      staysReadOnly(rita);
      rita.setReadOnly(true);
      rita.setAutoCommit(false);
      assertTrue(rita.isReadOnly());
      rita.setAutoCommit(true);
      staysReadOnly(rita);
    }
  }

  @Test void aUserWithoutAWriteRoleOnlyQueries() throws Exception {
    server = ShardSetServer.start(withUsers());
    try (Connection nora = as("nora", "norole")) {
      assertTrue(nora.isReadOnly());
      staysReadOnly(nora);
    }
  }

  @Test void writeRoleGetsAWritableConnection() throws Exception {
    server = ShardSetServer.start(withUsers());
    try (Connection alice = as("alice", "secret")) {
      assertFalse(alice.isReadOnly());
      alice.setReadOnly(true);
      assertTrue(alice.isReadOnly());
      refusesWrites(alice);
      alice.setReadOnly(false);
      assertFalse(alice.isReadOnly());
      assertEquals(1, insert(alice));
      assertEquals(1, count(alice));
    }
  }

  @Test void readOnlyServerOverridesTheWriteRole() throws Exception {
    server = ShardSetServer.start(withUsers().withReadOnly(true));
    try (Connection alice = as("alice", "secret")) {
      assertTrue(alice.isReadOnly());
      staysReadOnly(alice);
    }
  }

  @Test void withoutUsersEveryClientWritesUnlessTheServerIsReadOnly() throws Exception {
    final ServerSettings open = ServerSettings.loopback(shards.modelFile(), 0,
        Driver.Serialization.JSON);
    server = ShardSetServer.start(open);
    try (Connection client = DriverManager.getConnection(server.jdbcUrl())) {
      assertFalse(client.isReadOnly());
      assertEquals(1, insert(client));
      assertEquals(1, count(client));
    }
    server.close();
    server = ShardSetServer.start(open.withReadOnly(true));
    try (Connection client = DriverManager.getConnection(server.jdbcUrl())) {
      assertTrue(client.isReadOnly());
      staysReadOnly(client);
    }
  }
}
