package io.shardset.transaction;

import io.shardset.testing.Backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A transaction's attachments may refuse its commit (a writer whose process lost its lease on
 * the model, say): checked when the commit starts and, across shards, after every shard
 * prepared and before the decision; a refusal rolls the transaction back on every shard and
 * leaves nothing prepared and no decision.
 */
class CommitCheckTest {
  @TempDir Path folder;

  /** A check that refuses from its {@code refuseAt}-th call on, counting its calls. */
  private static final class Refusing implements CommitCheck, AutoCloseable {
    private final int refuseAt;
    final List<Integer> calls = Collections.synchronizedList(new ArrayList<>());

    Refusing(int refuseAt) {
      this.refuseAt = refuseAt;
    }

    @Override public void check() throws SQLException {
      calls.add(calls.size() + 1);
      if (calls.size() >= refuseAt) {
        throw new SQLException("no longer allowed", "08006");
      }
    }

    @Override public void close() {
    }
  }

  @Test void aRefusalAfterPreparingRollsBackEveryShard() throws SQLException {
    final LogDatabase log = TxShards.log(folder, "log");
    try (TxShards shards = TxShards.create(Backend.H2, 3);
         TransactionCoordinator coordinator = new TransactionCoordinator(
             TxShards.settings(log, false), shards.endpoints(), Steps.NONE, false)) {
      // Allowed when the commit starts, refused once the shards prepared.
      final ShardTransaction across = coordinator.begin();
      final Refusing second = across.attachment("check", Refusing.class, () -> new Refusing(2));
      shards.insertEverywhere(across, 1);
      final SQLException refused = assertThrows(SQLException.class, across::commit);
      assertEquals("08006", refused.getSQLState());
      assertEquals(List.of(1, 2), second.calls);
      assertEquals(ShardTransaction.State.ROLLED_BACK, across.state());

      // Refused at once on one shard: nothing is sent to commit.
      final ShardTransaction single = coordinator.begin();
      single.attachment("check", Refusing.class, () -> new Refusing(1));
      shards.insert(single, 0, 2);
      assertThrows(SQLException.class, single::commit);
      assertEquals(ShardTransaction.State.ROLLED_BACK, single.state());

      assertEquals(List.of(List.of(), List.of(), List.of()), shards.idsEverywhere());
      assertEquals(List.of(), shards.preparedEverywhere(TxShards.prefix(log)));
      assertEquals(Map.of(), TxShards.decisions(log));
    }
  }
}
