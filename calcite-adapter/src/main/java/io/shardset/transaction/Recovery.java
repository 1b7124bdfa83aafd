package io.shardset.transaction;

import io.shardset.execution.ShardEndpoint;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pass over a schema's shards that finishes the transactions a failure left prepared, as
 * Citus's {@code recover_prepared_transactions} does: a prepared branch whose transaction has
 * a commit record is committed; one without a record is rolled back, unless its transaction is
 * still in progress here or its coordinator instance is alive elsewhere (it may be about to
 * record the decision). A MariaDB branch waits until the session that ran it has ended (see
 * {@link CommitProtocol#isHeld}); a record stays while any branch of it is left. Then the records of transactions no shard holds prepared any more
 * (in two passes running) are deleted.
 */
final class Recovery {
  private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

  private final TransactionCoordinator coordinator;
  private final DecisionLog log;
  private final String instance;

  /** A prepared branch found on a shard, and the shard to finish it through. */
  private record Found(GlobalId.Branch branch, ShardEndpoint shard, CommitProtocol backend) {
  }

  Recovery(TransactionCoordinator coordinator, DecisionLog log, String instance) {
    this.coordinator = coordinator;
    this.log = log;
    this.instance = instance;
  }

  RecoveryReport run(Map<String, ShardEndpoint> shards) throws SQLException {
    // Read before the shards are listed: every branch of these was prepared by then.
    final Map<String, DecisionLog.Decision> recordedBefore = log.decisions();
    final List<String> unreachable = new ArrayList<>();
    final Map<String, Found> found = list(shards, unreachable);
    final Map<String, Boolean> alive = new HashMap<>();
    for (Found f : found.values()) {
      final String owner = f.branch().transaction().instance();
      if (!owner.equals(instance)) {
        alive.computeIfAbsent(owner, log::isAlive);
      }
    }
    // Read after the dead instances were deleted: none of them can record anything now.
    final Map<String, DecisionLog.Decision> decisions = log.decisions();
    int committed = 0;
    int rolledBack = 0;
    int skipped = 0;
    int failed = 0;
    final Set<String> left = new HashSet<>();
    for (Found f : found.values()) {
      final GlobalId id = f.branch().transaction();
      final String owner = id.instance();
      if (coordinator.isInProgress(id)
          || !owner.equals(instance) && alive.getOrDefault(owner, true)) {
        skipped++;
        left.add(id.text());
        continue;
      }
      final boolean commit = decisions.containsKey(id.text());
      try (Connection connection = f.shard().connect()) {
        if (f.backend().isHeld(connection, f.branch().id())) {
          // MariaDB: the session that ran it has not ended yet (its process may have just
          // died); finished then, a branch could be lost (see CommitProtocol.MARIADB).
          skipped++;
          left.add(id.text());
        } else if (commit) {
          f.backend().commitPrepared(connection, f.branch().id());
          committed++;
        } else {
          f.backend().rollbackPrepared(connection, f.branch().id());
          rolledBack++;
        }
      } catch (SQLException e) {
        left.add(id.text());
        if (f.backend().isUnknownBranch(e)) {
          // Finished by someone else meanwhile, or (MariaDB) still attached to a session
          // this user cannot see: the next pass knows which, the record stays.
          skipped++;
        } else {
          failed++;
          LOG.warn("Recovery could not {} branch {} on shard {}: {}", commit ? "commit"
              : "roll back", f.branch().id(), f.shard().name(),
              f.shard().redact(e.getMessage()));
        }
      }
    }
    final int forgotten = unreachable.isEmpty() ? forget(recordedBefore, left, shards) : 0;
    return new RecoveryReport(committed, rolledBack, skipped, failed, forgotten, unreachable);
  }

  /** The branches of this log's transactions the shards hold prepared, each once. */
  private Map<String, Found> list(Map<String, ShardEndpoint> shards, List<String> unreachable) {
    final String prefix = GlobalId.prefix(log.logId());
    final Map<String, Found> found = new LinkedHashMap<>();
    for (ShardEndpoint shard : shards.values()) {
      try (Connection connection = shard.connect()) {
        final CommitProtocol backend = coordinator.backend(shard, connection);
        for (String text : backend.prepared(connection)) {
          final GlobalId.Branch branch = text.startsWith(prefix)
              ? GlobalId.parseBranch(text) : null;
          // One MariaDB server lists the branches of all its databases: one shard does.
          if (branch != null) {
            found.putIfAbsent(branch.id(), new Found(branch, shard, backend));
          }
        }
      } catch (SQLException | RuntimeException e) {
        unreachable.add(shard.name());
        LOG.warn("Recovery cannot list the prepared transactions of shard {}: {}",
            shard.name(), shard.redact(String.valueOf(e.getMessage())));
      }
    }
    return found;
  }

  /**
   * Deletes this schema's records that no listed shard held a branch of, in this pass and the
   * one before. A record is what makes a later pass commit a branch rather than roll it back,
   * and deleting it is the one step recovery cannot take back: it waits for a second look.
   */
  private int forget(Map<String, DecisionLog.Decision> recorded, Set<String> left,
      Map<String, ShardEndpoint> shards) throws SQLException {
    final Set<String> unseen = new HashSet<>();
    int forgotten = 0;
    for (Map.Entry<String, DecisionLog.Decision> entry : recorded.entrySet()) {
      final DecisionLog.Decision decision = entry.getValue();
      if (decision.scope().equals(coordinator.settings().scope())
          && shards.keySet().containsAll(decision.participants())
          && !left.contains(entry.getKey())) {
        if (coordinator.wasUnseen(entry.getKey())) {
          log.forget(entry.getKey());
          forgotten++;
        } else {
          unseen.add(entry.getKey());
        }
      }
    }
    coordinator.unseen(unseen);
    return forgotten;
  }
}
