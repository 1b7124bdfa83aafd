package io.shardset.cli;

import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDBC transaction API of remote connections, which the server's ShardSet ones answer. */
class RemoteTransactionsTest {
  private static final String MODEL = "\"chunks\": 60, \"tables\": ["
      + "{\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";

  @TempDir Path folder;
  private H2Shards shards;
  private ShardSetServer server;

  @BeforeEach void start() throws Exception {
    shards = H2Shards.create(folder, 2, MODEL,
        "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY, NAME VARCHAR(20) NOT NULL)");
    server = ShardSetServer.start(
        ServerSettings.loopback(shards.modelFile(), 0, Driver.Serialization.PROTOBUF));
  }

  @AfterEach void stop() throws SQLException {
    server.close();
    shards.close();
  }

  private static List<String> count(Connection connection) throws SQLException {
    return H2Shards.rows(connection.createStatement()
        .executeQuery("SELECT COUNT(*) FROM CUSTOMERS"));
  }

  @Test void autoCommitCommitAndRollbackWithNothingWritten() throws SQLException {
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
      assertTrue(remote.getAutoCommit());
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, remote.getTransactionIsolation());
      remote.setAutoCommit(false);
      assertFalse(remote.getAutoCommit());
      assertEquals(List.of("0"), count(remote));
      remote.commit();
      remote.rollback();
      remote.setAutoCommit(true);
      assertTrue(remote.getAutoCommit());
      assertEquals(List.of("0"), count(remote));
    }
  }

  @Test void isolationLevelsAreGrantedAndARefusalLeavesTheConnectionUsable()
      throws SQLException {
    try (Connection remote = DriverManager.getConnection(shardSetRemoteUrl())) {
      remote.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
      assertEquals(Connection.TRANSACTION_SERIALIZABLE, remote.getTransactionIsolation());
      // jdbc:shardset:remote: sends the change at once: the call that makes it fails.
      final SQLException refused = assertThrows(SQLException.class,
          () -> remote.setTransactionIsolation(3));
      assertEquals("HY024", refused.getSQLState());
      assertEquals("transaction isolation 3 is not a level a connection can have; ShardSet"
          + " provides READ_COMMITTED, REPEATABLE_READ and SERIALIZABLE", refused.getMessage());
      assertEquals(Connection.TRANSACTION_SERIALIZABLE, remote.getTransactionIsolation());
      assertEquals(List.of("0"), count(remote));
      // Inside a transaction that reached a shard the level cannot change.
      remote.setAutoCommit(false);
      assertEquals(List.of("0"), count(remote));
      final SQLException during = assertThrows(SQLException.class,
          () -> remote.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED));
      assertEquals("25001", during.getSQLState());
      remote.commit();
      assertTrue(remote.getMetaData().supportsSavepoints());
      assertTrue(remote.getMetaData().supportsTransactionIsolationLevel(
          Connection.TRANSACTION_REPEATABLE_READ));
    }
    try (Connection avatica = DriverManager.getConnection(server.jdbcUrl())) {
      avatica.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      assertEquals(Connection.TRANSACTION_REPEATABLE_READ, avatica.getTransactionIsolation());
      // Avatica's own client sends a change with its next call, which the refusal fails, and
      // with each call after it until the client sets a level the server grants.
      avatica.setTransactionIsolation(3);
      final AvaticaClientRuntimeException refused = assertThrows(
          AvaticaClientRuntimeException.class, () -> count(avatica));
      assertEquals("HY024", refused.getSqlState());
      avatica.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      assertEquals(List.of("0"), count(avatica));
      assertEquals(Connection.TRANSACTION_REPEATABLE_READ, avatica.getTransactionIsolation());
    }
  }

  @Test void aRemoteTransactionReadsItsWritesAndSetsSavepoints() throws SQLException {
    for (String url : List.of(shardSetRemoteUrl(), server.jdbcUrl())) {
      try (Connection remote = DriverManager.getConnection(url);
           Statement s = remote.createStatement()) {
        s.executeUpdate("DELETE FROM CUSTOMERS");
        remote.setAutoCommit(false);
        s.executeUpdate("INSERT INTO CUSTOMERS VALUES (1, 'one')");
        // Avatica's own client has no savepoint calls; its SQL statements are the same.
        final Savepoint two = url.startsWith("jdbc:shardset:") ? remote.setSavepoint() : null;
        if (two == null) {
          assertEquals(0, s.executeUpdate("SAVEPOINT two"));
        }
        s.executeUpdate("INSERT INTO CUSTOMERS VALUES (2, 'two')");
        assertEquals(List.of("2"), count(remote));
        if (two != null) {
          remote.rollback(two);
        } else {
          assertEquals(0, s.executeUpdate("ROLLBACK TO SAVEPOINT two"));
        }
        assertEquals(List.of("1"), count(remote));
        final SQLException duplicate = assertThrows(SQLException.class,
            () -> s.executeUpdate("INSERT INTO CUSTOMERS VALUES (1, 'again')"));
        assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());
        final SQLException aborted = assertThrows(SQLException.class, () -> count(remote));
        assertEquals("25P02", aborted.getSQLState(), aborted.getMessage());
        // Avatica's own client throws the server's refusal of a commit unchecked.
        final Exception commit = assertThrows(Exception.class, remote::commit);
        assertEquals("25P02", commit instanceof SQLException e ? e.getSQLState()
            : ((AvaticaClientRuntimeException) commit).getSqlState(), commit.getMessage());
        assertEquals(url.startsWith("jdbc:shardset:"), commit instanceof SQLException);
        remote.setAutoCommit(true);
        assertEquals(List.of("0"), count(remote), url);
      }
    }
  }

  @Test void aFailedBatchCarriesTheShardsStateAndWritesNothing() throws SQLException {
    for (String url : List.of(shardSetRemoteUrl(), server.jdbcUrl())) {
      try (Connection remote = DriverManager.getConnection(url);
           Statement s = remote.createStatement();
           PreparedStatement p = remote.prepareStatement("INSERT INTO CUSTOMERS VALUES (?, 'x')")) {
        s.executeUpdate("DELETE FROM CUSTOMERS");
        s.executeUpdate("INSERT INTO CUSTOMERS VALUES (3, 'three')");
        for (long id : new long[] {1, 2, 3, 4}) {
          p.setLong(1, id);
          p.addBatch();
        }
        final SQLException e = assertThrows(SQLException.class, p::executeBatch);
        assertEquals("23505", e.getSQLState(), e.getMessage());
        assertEquals(List.of("1"), count(remote), url);
      }
    }
  }

  @Test void generatedKeysAreRefusedAtTheCallThatAsksForThem() throws SQLException {
    try (Connection remote = DriverManager.getConnection(shardSetRemoteUrl());
         Statement s = remote.createStatement()) {
      assertFalse(remote.getMetaData().supportsGetGeneratedKeys());
      final SQLException refused = assertThrows(SQLException.class, () -> remote
          .prepareStatement("INSERT INTO CUSTOMERS VALUES (?, 'x')",
              Statement.RETURN_GENERATED_KEYS));
      assertEquals("0A000", refused.getSQLState());
      assertEquals("generated keys are not returned over jdbc:shardset:remote: (Avatica's"
          + " protocol has no place for them); insert the keys yourself, or connect with"
          + " jdbc:shardset:", refused.getMessage());
      assertThrows(SQLException.class, () -> s.executeUpdate(
          "INSERT INTO CUSTOMERS VALUES (8, 'x')", Statement.RETURN_GENERATED_KEYS));
      try (PreparedStatement p = remote.prepareStatement(
          "INSERT INTO CUSTOMERS VALUES (?, 'x')", Statement.NO_GENERATED_KEYS)) {
        p.setLong(1, 9);
        assertEquals(1, p.executeUpdate());
      }
      assertEquals(List.of("1"), count(remote));
    }
  }

  private String shardSetRemoteUrl() {
    return server.jdbcUrl().replace("jdbc:avatica:remote:",
        ShardSetRemoteDriver.CONNECT_STRING_PREFIX);
  }
}
