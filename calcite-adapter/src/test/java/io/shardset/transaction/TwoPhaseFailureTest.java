package io.shardset.transaction;

import io.shardset.model.TransactionsSpec;
import io.shardset.testing.Backend;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transaction across shards that fails at any step ends all or nothing, at once or after
 * recovery: a shard failing to prepare rolls back every shard; a crash after every shard
 * prepared but before the decision is recorded is rolled back by recovery; a crash after the
 * decision, or a shard failing to commit after it, is committed by recovery.
 */
class TwoPhaseFailureTest {
  private static final List<List<Integer>> NOTHING = List.of(List.of(), List.of(), List.of());
  private static final List<List<Integer>> ONE_EVERYWHERE =
      List.of(List.of(1), List.of(1), List.of(1));

  @TempDir Path folder;

  /** What the coordinator's process dying at a step looks like to the shards. */
  private static final class Crash extends Error {
    private static final long serialVersionUID = 1L;
  }

  /** Steps that run {@code action} at one of them. */
  private static Steps at(String step, String shardOrNull, Consumer<GlobalId> action) {
    return new Steps() {
      @Override public void preparing(GlobalId id, String shard) {
        if (step.equals("preparing") && shard.equals(shardOrNull)) {
          action.accept(id);
        }
      }

      @Override public void prepared(GlobalId id) {
        if (step.equals("prepared")) {
          action.accept(id);
        }
      }

      @Override public void decided(GlobalId id) {
        if (step.equals("decided")) {
          action.accept(id);
        }
      }

      @Override public void committing(GlobalId id, String shard) {
        if (step.equals("committing") && shard.equals(shardOrNull)) {
          action.accept(id);
        }
      }
    };
  }

  private static void crash(GlobalId id) {
    throw new Crash();
  }

  private TransactionCoordinator coordinator(TxShards shards, LogDatabase log, Steps steps) {
    return new TransactionCoordinator(TxShards.settings(log, false), shards.endpoints(), steps,
        false);
  }

  @Test void aShardFailingToPrepareRollsBackEveryShard() throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 3);
         TransactionCoordinator coordinator = coordinator(shards, log, Steps.NONE)) {
      final ShardTransaction transaction = coordinator.begin();
      shards.insert(transaction, 0, 1);
      shards.insert(transaction, 1, 1);
      try (Statement s = transaction.connection(shards.endpoint(2)).createStatement()) {
        // Checked when the transaction prepares: after s0 and s1 prepared.
        s.executeUpdate("insert into d values (1, 99)");
      }
      final SQLException e = assertThrows(SQLException.class, transaction::commit);
      assertTrue(e.getMessage().startsWith("cannot commit the transaction across shards 's0',"
          + " 's1', 's2': preparing it on shard 's2' failed: ERROR: insert or update on table"
          + " \"d\" violates foreign key constraint"), e.getMessage());
      assertTrue(e.getMessage().endsWith("; the transaction was rolled back on every shard"),
          e.getMessage());
      assertEquals("23503", e.getSQLState());
      assertEquals(ShardTransaction.State.ROLLED_BACK, transaction.state());
      assertEquals(NOTHING, shards.idsEverywhere());
      assertEquals(List.of(), shards.preparedEverywhere(TxShards.prefix(log)));
      assertEquals(Map.of(), TxShards.decisions(log));
    }
  }

  @Test void aShardWhoseConnectionDiesBeforePreparingRollsBackEveryShard()
      throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    final int[] pid = new int[1];
    final Steps kill = at("preparing", "s1", id -> terminate(pid[0]));
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 3);
         TransactionCoordinator coordinator = coordinator(shards, log, kill)) {
      final ShardTransaction transaction = coordinator.begin();
      shards.insertEverywhere(transaction, 1);
      try (Statement s = transaction.connection(shards.endpoint(1)).createStatement();
           ResultSet rows = s.executeQuery("select pg_backend_pid()")) {
        rows.next();
        pid[0] = rows.getInt(1);
      }
      final SQLException e = assertThrows(SQLException.class, transaction::commit);
      assertTrue(e.getMessage().startsWith("cannot commit the transaction across shards 's0',"
          + " 's1', 's2': preparing it on shard 's1' failed: "), e.getMessage());
      assertEquals(NOTHING, shards.idsEverywhere());
      assertEquals(List.of(), shards.preparedEverywhere(TxShards.prefix(log)));
      assertEquals(RecoveryReport.NOTHING, coordinator.recover());
    }
  }

  private static void terminate(int pid) {
    try (Connection admin = PostgresServer.admin();
         PreparedStatement s = admin.prepareStatement("select pg_terminate_backend(?)")) {
      s.setInt(1, pid);
      s.executeQuery().close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest @EnumSource(value = Backend.class, names = {"H2", "POSTGRES", "MARIADB",
      "MIXED_WITH_MARIADB"})
  void aCrashBeforeTheDecisionIsRolledBackByRecovery(Backend backend) throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    try (TxShards shards = TxShards.create(backend, 3)) {
      final TransactionCoordinator crashing =
          coordinator(shards, log, at("prepared", null, TwoPhaseFailureTest::crash));
      final ShardTransaction transaction = crashing.begin();
      shards.insertEverywhere(transaction, 1);
      assertThrows(Crash.class, transaction::commit);
      final String prefix = TxShards.prefix(log);
      assertEquals(3, shards.preparedEverywhere(prefix).size());
      assertEquals(Map.of(), TxShards.decisions(log));
      // The process is gone: so is its lock in the log.
      crashing.close();
      try (TransactionCoordinator recovering = coordinator(shards, log, Steps.NONE)) {
        assertEquals(new RecoveryReport(0, 3, 0, 0, 0, List.of()),
            TxShards.recoverAll(recovering));
        assertEquals(RecoveryReport.NOTHING, recovering.recover());
      }
      assertEquals(NOTHING, shards.idsEverywhere());
      assertEquals(List.of(), shards.preparedEverywhere(prefix));
    }
  }

  @ParameterizedTest @EnumSource(value = Backend.class, names = {"H2", "POSTGRES", "MARIADB",
      "MIXED_WITH_MARIADB"})
  void aCrashBetweenTheDecisionAndTheCommitsIsCommittedByRecovery(Backend backend)
      throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    try (TxShards shards = TxShards.create(backend, 3)) {
      final TransactionCoordinator crashing =
          coordinator(shards, log, at("committing", "s1", TwoPhaseFailureTest::crash));
      final ShardTransaction transaction = crashing.begin();
      shards.insertEverywhere(transaction, 1);
      assertThrows(Crash.class, transaction::commit);
      final String prefix = TxShards.prefix(log);
      // The shards commit in parallel: the others did, s1 did not.
      assertEquals(List.of(List.of(1), List.of(), List.of(1)), shards.idsEverywhere());
      assertEquals(1, shards.preparedEverywhere(prefix).size());
      assertEquals(1, TxShards.decisions(log).size());
      crashing.close();
      try (TransactionCoordinator recovering = coordinator(shards, log, Steps.NONE)) {
        assertEquals(new RecoveryReport(1, 0, 0, 0, 0, List.of()),
            TxShards.recoverAll(recovering));
        // Forgotten once a second pass found no branch of it either.
        assertEquals(new RecoveryReport(0, 0, 0, 0, 1, List.of()), recovering.recover());
        assertEquals(RecoveryReport.NOTHING, recovering.recover());
      }
      assertEquals(ONE_EVERYWHERE, shards.idsEverywhere());
      assertEquals(List.of(), shards.preparedEverywhere(prefix));
      assertEquals(Map.of(), TxShards.decisions(log));
    }
  }

  @Test void theSameInstanceRecoversWhatItLeftBehind() throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    final boolean[] crashOnce = {true};
    final Steps steps = at("prepared", null, id -> {
      if (crashOnce[0]) {
        crashOnce[0] = false;
        throw new Crash();
      }
    });
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 3);
         TransactionCoordinator coordinator = coordinator(shards, log, steps)) {
      final ShardTransaction crashed = coordinator.begin();
      shards.insertEverywhere(crashed, 1);
      assertThrows(Crash.class, crashed::commit);
      final ShardTransaction next = coordinator.begin();
      shards.insertEverywhere(next, 2);
      next.commit();
      // The first is no longer in progress here, and has no record: rolled back.
      assertEquals(new RecoveryReport(0, 3, 0, 0, 0, List.of()), coordinator.recover());
      assertEquals(List.of(List.of(2), List.of(2), List.of(2)), shards.idsEverywhere());
    }
  }

  @Test void aShardFailingToCommitAfterTheDecisionStillCommits() throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    final int[] pid = new int[1];
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 3);
         TransactionCoordinator coordinator =
             coordinator(shards, log, at("committing", "s1", id -> terminate(pid[0])))) {
      final ShardTransaction transaction = coordinator.begin();
      shards.insertEverywhere(transaction, 1);
      try (Statement s = transaction.connection(shards.endpoint(1)).createStatement();
           ResultSet rows = s.executeQuery("select pg_backend_pid()")) {
        rows.next();
        pid[0] = rows.getInt(1);
      }
      transaction.commit();
      assertEquals(ShardTransaction.State.COMMITTED, transaction.state());
      assertEquals(List.of(List.of(1), List.of(), List.of(1)), shards.idsEverywhere());
      assertEquals(1, shards.preparedEverywhere(TxShards.prefix(log)).size());
      assertEquals(new RecoveryReport(1, 0, 0, 0, 0, List.of()), coordinator.recover());
      assertEquals(new RecoveryReport(0, 0, 0, 0, 1, List.of()), coordinator.recover());
      assertEquals(ONE_EVERYWHERE, shards.idsEverywhere());
      assertEquals(Map.of(), TxShards.decisions(log));
    }
  }

  @Test void recoveryLeavesALiveInstancesTransactionAlone() throws Exception {
    final LogDatabase log = TxShards.log(folder, "log");
    final CountDownLatch prepared = new CountDownLatch(1);
    final CountDownLatch proceed = new CountDownLatch(1);
    final Steps pause = at("prepared", null, id -> {
      prepared.countDown();
      try {
        proceed.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 3);
         TransactionCoordinator owner = coordinator(shards, log, pause);
         TransactionCoordinator other = coordinator(shards, log, Steps.NONE)) {
      final ShardTransaction transaction = owner.begin();
      shards.insertEverywhere(transaction, 1);
      final CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
        try {
          transaction.commit();
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      prepared.await();
      assertEquals(new RecoveryReport(0, 0, 3, 0, 0, List.of()), other.recover());
      assertEquals(new RecoveryReport(0, 0, 3, 0, 0, List.of()), owner.recover());
      proceed.countDown();
      commit.get();
      assertEquals(ONE_EVERYWHERE, shards.idsEverywhere());
      assertEquals(RecoveryReport.NOTHING, other.recover());
    }
  }

  @Test void anInstanceTakenForDeadCannotRecordItsDecision() throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    final Steps unregister = at("prepared", null, id -> {
      // What a recoverer does to an instance whose lock it could take.
      try (Connection c = log.connect();
           PreparedStatement s = c.prepareStatement(
               "delete from shardset_tx_coordinators where instance_id = ?")) {
        s.setString(1, id.instance());
        s.executeUpdate();
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
    try (TxShards shards = TxShards.create(Backend.H2, 3);
         TransactionCoordinator coordinator = coordinator(shards, log, unregister)) {
      final ShardTransaction transaction = coordinator.begin();
      shards.insertEverywhere(transaction, 1);
      final SQLException e = assertThrows(SQLException.class, transaction::commit);
      assertTrue(e.getMessage().startsWith("cannot commit the transaction across shards 's0',"
          + " 's1', 's2': recording its commit decision in the decision log failed:"
          + " coordinator instance "), e.getMessage());
      assertTrue(e.getMessage().endsWith(" lost its registration in the decision log"
          + " (another process took it for dead: its connection to the log broke, or it"
          + " stalled with a transaction prepared); the transaction was rolled back"),
          e.getMessage());
      assertEquals(NOTHING, shards.idsEverywhere());
      assertEquals(List.of(), shards.preparedEverywhere(TxShards.prefix(log)));
    }
  }

  @Test void withoutADecisionLogOnlyOneShardCommits() throws SQLException {
    final TransactionSettings settings =
        TransactionSettings.of("TX", TransactionsSpec.DEFAULT, null);
    try (TxShards shards = TxShards.create(Backend.H2, 3);
         TransactionCoordinator coordinator = new TransactionCoordinator(settings,
             shards.endpoints(), Steps.NONE, false)) {
      final ShardTransaction one = coordinator.begin();
      shards.insert(one, 0, 1);
      one.commit();
      final ShardTransaction several = coordinator.begin();
      shards.insert(several, 1, 2);
      shards.insert(several, 2, 2);
      final SQLException e = assertThrows(SQLException.class, several::commit);
      assertEquals("no decision log: schema 'TX' was not read from a model file, so it has no"
          + " default decision log; set \"transactions\": {\"log\": \"<directory or JDBC"
          + " URL>\"} in its operand", e.getMessage());
      assertEquals(List.of(List.of(1), List.of(), List.of()), shards.idsEverywhere());
    }
  }

  @Test void postgresWithoutPreparedTransactionsSaysWhatToChange() {
    final SQLException disabled = new SQLException("ERROR: prepared transactions are disabled\n"
        + "  Hint: Set max_prepared_transactions to a nonzero value.", "55000");
    assertEquals("PostgreSQL shard 'p1' has max_prepared_transactions = 0; two-phase commit"
        + " across shards needs it above 0 (see docs/writing.md)",
        CommitProtocol.disabledPreparedTransactions(disabled, "p1").getMessage());
    final SQLException other = new SQLException("ERROR: something else", "55000");
    assertEquals(other, CommitProtocol.disabledPreparedTransactions(other, "p1"));
  }
}
