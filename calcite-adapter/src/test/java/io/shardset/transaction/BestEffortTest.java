package io.shardset.transaction;

import io.shardset.execution.ShardEndpoint;
import io.shardset.testing.Backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A transaction across shards of which one has no two-phase commit ShardSet knows (its driver
 * reports an unknown product): refused before anything commits, unless the model accepts best
 * effort, which commits shard by shard.
 */
class BestEffortTest {
  @TempDir Path folder;

  private static void insert(ShardTransaction transaction, ShardEndpoint shard, int id)
      throws SQLException {
    try (Statement s = transaction.connection(shard).createStatement()) {
      s.executeUpdate("insert into t values (" + id + ")");
    }
  }

  @Test void refusedWithoutBestEffortCommittedShardByShardWithIt() throws SQLException {
    try (TxShards shards = TxShards.create(Backend.H2, 2)) {
      final ProxyEndpoint s0 = new ProxyEndpoint(shards.endpoint(0), null);
      final ProxyEndpoint acme = new ProxyEndpoint(shards.endpoint(1), "Acme DB");
      final Map<String, ShardEndpoint> endpoints = new LinkedHashMap<>();
      endpoints.put("s0", s0);
      endpoints.put("s1", acme);
      final LogDatabase log = TxShards.log(folder, "log");
      try (TransactionCoordinator strict = new TransactionCoordinator(
          TxShards.settings(log, false), endpoints, Steps.NONE, false)) {
        final ShardTransaction transaction = strict.begin();
        insert(transaction, s0, 1);
        insert(transaction, acme, 1);
        final SQLException e = assertThrows(SQLException.class, transaction::commit);
        assertEquals("cannot commit a transaction across shards 's0', 's1' atomically: shard"
            + " 's1' (Acme DB) has no two-phase commit ShardSet can use; the transaction was"
            + " rolled back. A model may accept commits shard by shard, not atomic, with"
            + " \"transactions\": {\"bestEffort\": true}", e.getMessage());
        assertEquals(ShardTransaction.State.ROLLED_BACK, transaction.state());
        assertEquals(List.of(List.of(), List.of()), shards.idsEverywhere());
        // A transaction on the unknown shard alone commits as ever.
        final ShardTransaction alone = strict.begin();
        insert(alone, acme, 2);
        alone.commit();
        assertEquals(List.of(List.of(), List.of(2)), shards.idsEverywhere());
      }
      try (TransactionCoordinator bestEffort = new TransactionCoordinator(
          TxShards.settings(log, true), endpoints, Steps.NONE, false)) {
        final ShardTransaction transaction = bestEffort.begin();
        insert(transaction, s0, 3);
        insert(transaction, acme, 3);
        transaction.commit();
        assertEquals(ShardTransaction.State.COMMITTED, transaction.state());
        assertEquals(List.of(List.of(3), List.of(2, 3)), shards.idsEverywhere());
      }
      assertFalse(s0.executedAny("PREPARE"), s0.executed().toString());
      assertFalse(acme.executedAny("PREPARE"), acme.executed().toString());
    }
  }

  @Test void productNamesChooseTheProtocol() {
    assertEquals(CommitProtocol.POSTGRESQL, CommitProtocol.of("PostgreSQL"));
    assertEquals(CommitProtocol.MARIADB, CommitProtocol.of("MariaDB"));
    assertEquals(CommitProtocol.MARIADB, CommitProtocol.of("MySQL"));
    assertEquals(CommitProtocol.H2, CommitProtocol.of("H2"));
    assertEquals(CommitProtocol.OTHER, CommitProtocol.of("Acme DB"));
    assertFalse(CommitProtocol.OTHER.hasTwoPhaseCommit());
  }
}
