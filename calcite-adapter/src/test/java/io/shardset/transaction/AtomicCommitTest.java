package io.shardset.transaction;

import io.shardset.execution.ShardEndpoint;
import io.shardset.testing.Backend;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactions across three shards commit on all or none, with each backend's own two-phase
 * commit (H2, PostgreSQL, MariaDB, and a mix of the three); a transaction on one shard
 * commits locally, without preparing.
 */
class AtomicCommitTest {
  @TempDir Path folder;

  /** Records what the coordinator does, step by step. */
  private static final class Recorded implements Steps {
    final List<String> steps = Collections.synchronizedList(new ArrayList<>());

    @Override public void preparing(GlobalId id, String shard) {
      steps.add("prepare " + shard);
    }

    @Override public void decided(GlobalId id) {
      steps.add("decided");
    }

    @Override public void committing(GlobalId id, String shard) {
      steps.add("commit " + shard);
    }
  }

  @ParameterizedTest @EnumSource(value = Backend.class, names = {"H2", "POSTGRES", "MARIADB",
      "MIXED_WITH_MARIADB"})
  void committedOnEveryShardOrNone(Backend backend) throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    final Recorded recorded = new Recorded();
    try (TxShards shards = TxShards.create(backend, 3);
         TransactionCoordinator coordinator = new TransactionCoordinator(
             TxShards.settings(log, false), shards.endpoints(), recorded, false)) {
      final ShardTransaction committed = coordinator.begin();
      shards.insertEverywhere(committed, 1);
      assertEquals(List.of("s0", "s1", "s2"), committed.shards());
      committed.commit();
      assertEquals(ShardTransaction.State.COMMITTED, committed.state());
      // The shards prepare in parallel, then the decision, then they commit in parallel.
      assertEquals(7, recorded.steps.size(), recorded.steps.toString());
      assertEquals(Set.of("prepare s0", "prepare s1", "prepare s2"),
          Set.copyOf(recorded.steps.subList(0, 3)));
      assertEquals("decided", recorded.steps.get(3));
      assertEquals(Set.of("commit s0", "commit s1", "commit s2"),
          Set.copyOf(recorded.steps.subList(4, 7)));

      final ShardTransaction rolledBack = coordinator.begin();
      shards.insertEverywhere(rolledBack, 2);
      rolledBack.rollback();
      assertEquals(ShardTransaction.State.ROLLED_BACK, rolledBack.state());

      assertEquals(List.of(List.of(1), List.of(1), List.of(1)), shards.idsEverywhere());
      final String prefix = TxShards.prefix(log);
      assertEquals(List.of(), shards.preparedEverywhere(prefix));
      assertEquals(Map.of(), TxShards.decisions(log));
      assertEquals(RecoveryReport.NOTHING, coordinator.recover());
    }
  }

  @ParameterizedTest @EnumSource(value = Backend.class, names = {"H2", "POSTGRES", "MARIADB"})
  void oneShardCommitsWithoutPreparing(Backend backend) throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    final Recorded recorded = new Recorded();
    try (TxShards shards = TxShards.create(backend, 2)) {
      final ProxyEndpoint s1 = new ProxyEndpoint(shards.endpoint(1), null);
      try (TransactionCoordinator coordinator = new TransactionCoordinator(
          TxShards.settings(log, false), Map.of("s1", (ShardEndpoint) s1), recorded, false)) {
        final ShardTransaction transaction = coordinator.begin();
        try (Statement s = transaction.connection(s1).createStatement()) {
          s.executeUpdate("insert into t values (7)");
          s.executeUpdate("insert into t values (8)");
        }
        transaction.commit();
      }
      assertEquals(List.of(List.of(), List.of(7, 8)), shards.idsEverywhere());
      assertEquals(List.of(), recorded.steps);
      assertFalse(s1.executedAny("PREPARE"), s1.executed().toString());
      if (backend == Backend.MARIADB) {
        assertTrue(s1.executedAny("ONE PHASE"), s1.executed().toString());
      } else {
        // Nothing needed an id: the decision log was never even created.
        assertFalse(Files.exists(Path.of(log.h2File() + ".mv.db")));
      }
    }
  }

  @ParameterizedTest @EnumSource(value = Backend.class, names = {"H2", "POSTGRES", "MARIADB"})
  void aFailedStatementRollsBackEveryShard(Backend backend) throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    try (TxShards shards = TxShards.create(backend, 3);
         TransactionCoordinator coordinator = new TransactionCoordinator(
             TxShards.settings(log, false), shards.endpoints(), Steps.NONE, false)) {
      try (ShardTransaction first = coordinator.begin()) {
        shards.insert(first, 2, 5);
        first.commit();
      }
      final ShardTransaction transaction = coordinator.begin();
      shards.insert(transaction, 0, 5);
      shards.insert(transaction, 1, 5);
      assertThrows(SQLException.class, () -> shards.insert(transaction, 2, 5));
      // As a writer does when its statement fails.
      transaction.rollback();
      assertEquals(List.of(List.of(), List.of(), List.of(5)), shards.idsEverywhere());
      assertThrows(IllegalStateException.class, transaction::commit);
    }
  }
}
