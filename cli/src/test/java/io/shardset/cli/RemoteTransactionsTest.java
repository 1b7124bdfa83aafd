package io.shardset.cli;

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
import java.sql.SQLException;
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

  @Test void anIsolationShardSetDoesNotProvideIsRefusedWithItsSqlState() throws SQLException {
    try (Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
      // Avatica's client sends the change with its next call, and reports the refusal there,
      // as an unchecked exception.
      remote.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
      final AvaticaClientRuntimeException refused = assertThrows(
          AvaticaClientRuntimeException.class, remote::getTransactionIsolation);
      assertEquals("0A000", refused.getSqlState());
      assertEquals("Remote driver error: transaction isolation SERIALIZABLE is not supported:"
          + " ShardSet reads each shard as committed when a query reads it (READ_COMMITTED)",
          refused.getMessage());
      remote.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, remote.getTransactionIsolation());
      assertEquals(List.of("0"), count(remote));
    }
  }
}
