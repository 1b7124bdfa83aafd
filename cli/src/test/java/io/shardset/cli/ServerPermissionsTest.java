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
 * every other user read-only ones (whose writes ShardSet refuses with SQLState 42501, a
 * missing privilege) that stay read-only when they ask otherwise, and {@code --read-only}
 * makes every connection read-only (its writes refused with 25006, as a read-only
 * connection's).
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

  /** What a write refused on a read-only connection says. */
  private static final String READ_ONLY = "connection is read-only";

  /** Checks that a write through the connection is refused with the state and reason, and
   * that nothing reached the shards. */
  private void refusesWrites(Connection connection, String state, String why)
      throws SQLException {
    final long before = count(connection);
    final SQLException e = assertThrows(SQLException.class, () -> insert(connection));
    assertEquals(state, e.getSQLState(), e.getMessage());
    assertEquals("Error 0 (" + state + ") : Error while executing SQL \"" + INSERT + "\":"
        + " Remote driver error: " + why + ": cannot write to table S.CUSTOMERS",
        e.getMessage());
    assertEquals(before, count(connection));
  }

  /** Asks to make the connection writable, and checks that it stays read-only and usable,
   * its writes refused with the state and reason. */
  private void staysReadOnly(Connection connection, String state, String why)
      throws SQLException {
    connection.setReadOnly(false);
    assertTrue(connection.isReadOnly());
    count(connection);
    assertTrue(connection.isReadOnly());
    refusesWrites(connection, state, why);
  }

  @Test void readRoleGetsAReadOnlyConnectionItCannotMakeWritable() throws Exception {
    server = ShardSetServer.start(withUsers());
    try (Connection rita = as("rita", "reader")) {
      assertTrue(rita.isReadOnly());
      assertEquals(0, count(rita));
      final String why = "user rita has no role 'write' (or has the role 'read')";
      staysReadOnly(rita, "42501", why);
      rita.setReadOnly(true);
      rita.setAutoCommit(false);
      assertTrue(rita.isReadOnly());
      rita.setAutoCommit(true);
      staysReadOnly(rita, "42501", why);
    }
  }

  @Test void aUserWithoutAWriteRoleOnlyQueries() throws Exception {
    server = ShardSetServer.start(withUsers());
    try (Connection nora = as("nora", "norole")) {
      assertTrue(nora.isReadOnly());
      staysReadOnly(nora, "42501", "user nora has no role 'write' (or has the role 'read')");
    }
  }

  @Test void writeRoleGetsAWritableConnection() throws Exception {
    server = ShardSetServer.start(withUsers());
    try (Connection alice = as("alice", "secret")) {
      assertFalse(alice.isReadOnly());
      alice.setReadOnly(true);
      assertTrue(alice.isReadOnly());
      refusesWrites(alice, "25006", READ_ONLY);
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
      staysReadOnly(alice, "25006", READ_ONLY);
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
      staysReadOnly(client, "25006", READ_ONLY);
    }
  }
}
