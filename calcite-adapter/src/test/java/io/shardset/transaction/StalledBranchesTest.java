package io.shardset.transaction;

import io.shardset.testing.Backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A coordinator paused in the middle of a commit across shards (it holds its lock in the
 * decision log, so recovery takes it for alive) has its branches finished by
 * {@link PreparedBranches#finishStalled}: rolled back when it had recorded no decision,
 * committed when it had; resumed, it reports the same outcome to its client, and its next
 * transaction commits under a registration of its own.
 */
class StalledBranchesTest {
  private static final List<List<Integer>> NOTHING = List.of(List.of(), List.of(), List.of());

  @TempDir Path folder;

  /** Steps that hold the committing thread at one step until let go. */
  private static final class Pause implements Steps {
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch resume = new CountDownLatch(1);
    private final String step;
    private volatile boolean once = true;

    Pause(String step) {
      this.step = step;
    }

    @Override public void prepared(GlobalId id) {
      hold("prepared");
    }

    @Override public void decided(GlobalId id) {
      hold("decided");
    }

    private void hold(String at) {
      if (!at.equals(step) || !once) {
        return;
      }
      once = false;
      reached.countDown();
      try {
        resume.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A commit across three PostgreSQL shards, held at a step by its paused coordinator. */
  private record Stalled(TxShards shards, LogDatabase log, TransactionCoordinator coordinator,
      ShardTransaction transaction, CompletableFuture<Void> commit, Pause pause) {
  }

  /** What a test does with a stalled commit. */
  private interface StalledUse {
    void accept(Stalled stalled) throws Exception;
  }

  private void stalledAt(String step, StalledUse use) throws Exception {
    final LogDatabase log = TxShards.log(folder, "log");
    final Pause pause = new Pause(step);
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 3);
         TransactionCoordinator paused = new TransactionCoordinator(
             TxShards.settings(log, false), shards.endpoints(), pause, false)) {
      final ShardTransaction transaction = paused.begin();
      shards.insertEverywhere(transaction, 1);
      final CompletableFuture<Void> commit = commitAsync(transaction);
      assertTrue(pause.reached.await(1, TimeUnit.MINUTES));
      use.accept(new Stalled(shards, log, paused, transaction, commit, pause));
      assertNextTransactionCommits(paused, shards, log);
    }
  }

  @Test void pausedBeforeItsDecisionIsRolledBackAndSaysSo() throws Exception {
    stalledAt("prepared", stalled -> {
      final TxShards shards = stalled.shards();
      assertEquals(List.of("rolled back (no commit decision was recorded)"),
          finishEverywhere(shards, stalled.log()));
      assertEquals(List.of(), shards.preparedEverywhere(TxShards.prefix(stalled.log())));
      assertEquals(NOTHING, shards.idsEverywhere());

      stalled.pause().resume.countDown();
      final ExecutionException e = assertThrows(ExecutionException.class,
          () -> stalled.commit().get(1, TimeUnit.MINUTES));
      final SQLException cause = assertInstanceOf(SQLException.class, e.getCause());
      assertTrue(cause.getMessage().matches("cannot commit the transaction across shards"
          + " 's0', 's1', 's2': recording its commit decision in the decision log failed:"
          + " coordinator instance [a-z0-9]{8} lost its registration in the decision log .*"),
          cause.getMessage());
      assertTrue(cause.getMessage().endsWith("; the transaction was rolled back"),
          cause.getMessage());
      assertEquals(NOTHING, shards.idsEverywhere());
      assertEquals(Map.of(), TxShards.decisions(stalled.log()));
    });
  }

  @Test void pausedAfterItsDecisionIsCommittedAndSaysSo() throws Exception {
    stalledAt("decided", stalled -> {
      final TxShards shards = stalled.shards();
      assertEquals(List.of("committed (its commit decision was recorded)"),
          finishEverywhere(shards, stalled.log()));
      assertEquals(List.of(List.of(1), List.of(1), List.of(1)), shards.idsEverywhere());

      stalled.pause().resume.countDown();
      stalled.commit().get(1, TimeUnit.MINUTES);
      assertEquals(ShardTransaction.State.COMMITTED, stalled.transaction().state());
      assertEquals(List.of(List.of(1), List.of(1), List.of(1)), shards.idsEverywhere());
      assertEquals(List.of(), shards.preparedEverywhere(TxShards.prefix(stalled.log())));
      // The record is left for recovery, which deletes it once two passes saw no branch.
      stalled.coordinator().recover();
      assertEquals(1, stalled.coordinator().recover().forgotten());
      assertEquals(Map.of(), TxShards.decisions(stalled.log()));
    });
  }

  @Test void aBranchOfAnotherLogIsLeftAndNamed() throws Exception {
    final LogDatabase log = TxShards.log(folder, "log");
    try (TxShards shards = TxShards.create(Backend.POSTGRES, 1);
         Connection connection = shards.connect(0)) {
      assertEquals(List.of("ss_other_inst_1_0 left: not a transaction of schema '"
              + TxShards.settings(log, false).scope() + "''s decision log"),
          PreparedBranches.finishStalled(TxShards.settings(log, false), connection,
              List.of("ss_other_inst_1_0"), Duration.ofSeconds(1)));
    }
  }

  private static CompletableFuture<Void> commitAsync(ShardTransaction transaction) {
    return CompletableFuture.runAsync(() -> {
      try {
        transaction.commit();
      } catch (SQLException e) {
        throw new CompletionException(e);
      }
    });
  }

  /** Finishes what each shard holds prepared; the distinct outcomes, without branch ids. */
  private static List<String> finishEverywhere(TxShards shards, LogDatabase log)
      throws SQLException {
    final List<String> outcomes = new ArrayList<>();
    for (int i = 0; i < shards.count(); i++) {
      try (Connection connection = shards.connect(i)) {
        final List<String> prepared = PreparedBranches.on(connection);
        assertEquals(1, prepared.size(), prepared::toString);
        for (String outcome : PreparedBranches.finishStalled(TxShards.settings(log, false),
            connection, prepared, Duration.ofSeconds(5))) {
          assertTrue(outcome.startsWith(prepared.get(0) + " "), outcome);
          final String what = outcome.substring(prepared.get(0).length() + 1);
          if (!outcomes.contains(what)) {
            outcomes.add(what);
          }
        }
      }
    }
    return outcomes;
  }

  /** The resumed coordinator registers anew: its next transaction commits everywhere. */
  private static void assertNextTransactionCommits(TransactionCoordinator coordinator,
      TxShards shards, LogDatabase log) throws SQLException {
    final List<List<Integer>> before = shards.idsEverywhere();
    final ShardTransaction next = coordinator.begin();
    shards.insertEverywhere(next, 2);
    next.commit();
    final List<List<Integer>> after = new ArrayList<>();
    for (List<Integer> ids : before) {
      final List<Integer> with = new ArrayList<>(ids);
      with.add(2);
      after.add(with);
    }
    assertEquals(after, shards.idsEverywhere());
    assertEquals(List.of(), shards.preparedEverywhere(TxShards.prefix(log)));
  }
}
