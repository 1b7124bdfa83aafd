package io.shardset.transaction;

import io.shardset.execution.Secrets;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The commit of a transaction that wrote to several shards: every shard prepares it, in
 * parallel; the commit decision is recorded, durably, in the decision log
 * ({@link DecisionLog}), the one point of truth; then every shard commits it, in parallel.
 * A failure before the record leaves the transaction to be rolled back everywhere; after the
 * record it is committed, and recovery finishes what a failure left prepared.
 *
 * <p>When a shard has no two-phase commit and the model accepts best effort, the shards
 * commit one after another instead, not atomically.
 */
final class TwoPhaseCommit {
  private static final Logger LOG = LoggerFactory.getLogger(TwoPhaseCommit.class);

  private final TransactionCoordinator coordinator;
  private final Supplier<GlobalId> id;
  private final List<ShardBranch> branches;
  /** The names of every shard of the transaction, for messages. */
  private final Supplier<String> names;
  private final CommitCheck check;
  private boolean decided;
  private boolean inDoubt;

  /**
   * A commit of {@code branches}, the shards the transaction wrote to.
   *
   * @param id the transaction's id, made when first needed
   * @param check what must hold once every shard has prepared, before the decision
   */
  TwoPhaseCommit(TransactionCoordinator coordinator, Supplier<GlobalId> id,
      List<ShardBranch> branches, Supplier<String> names, CommitCheck check) {
    this.coordinator = coordinator;
    this.id = id;
    this.branches = List.copyOf(branches);
    this.names = names;
    this.check = check;
  }

  /** Whether the commit decision was recorded: the transaction is committed. */
  boolean decided() {
    return decided;
  }

  /** Whether the outcome is not known: recovery decides it. */
  boolean inDoubt() {
    return inDoubt;
  }

  /**
   * Runs the protocol.
   *
   * @throws SQLException if the transaction could not commit: it must be rolled back unless
   *     {@link #inDoubt()} or {@link #decided()}
   */
  void commit() throws SQLException {
    final ShardBranch lacking = branches.stream()
        .filter(branch -> !branch.backend().hasTwoPhaseCommit()).findFirst().orElse(null);
    if (lacking != null) {
      if (!coordinator.settings().bestEffort()) {
        throw new SQLException("cannot commit a transaction across shards " + names.get()
            + " atomically: shard '" + lacking.shard.name() + "' ("
            + lacking.productName() + ") has no two-phase commit ShardSet can use;"
            + " the transaction was rolled back. A model may accept commits shard by shard,"
            + " not atomic, with \"transactions\": {\"bestEffort\": true}", "0A000");
      }
      commitOneByOne(lacking);
      return;
    }
    final DecisionLog log = coordinator.openLog(false);
    final GlobalId gid = id.get();
    if (!gid.log().equals(log.logId())) {
      throw new SQLException("cannot commit a transaction across shards " + names.get()
          + ": it began while its decision log could not be opened; the transaction was"
          + " rolled back", "25000");
    }
    coordinator.started(gid);
    try {
      run(log, gid);
    } finally {
      coordinator.finished(gid);
    }
  }

  private void run(DecisionLog log, GlobalId gid) throws SQLException {
    final Steps steps = coordinator.steps();
    final List<Callable<Void>> prepares = new ArrayList<>();
    for (ShardBranch branch : branches) {
      prepares.add(() -> {
        steps.preparing(gid, branch.shard.name());
        branch.prepare(gid.branch(branch.index));
        return null;
      });
    }
    final List<Throwable> failures = coordinator.inParallel(prepares);
    rethrowErrors(failures);
    for (int i = 0; i < failures.size(); i++) {
      if (failures.get(i) != null) {
        throw failed(branches.get(i), "preparing", (Exception) failures.get(i));
      }
    }
    steps.prepared(gid);
    // Preparing may take long: what allowed the commit must still hold when it is decided.
    check.check();
    final List<String> written = branches.stream().map(branch -> branch.shard.name())
        .toList();
    try {
      log.record(gid, coordinator.settings().scope(), written);
    } catch (DecisionUnknownException e) {
      inDoubt = true;
      branches.forEach(ShardBranch::markBroken);
      throw new SQLException("the outcome of transaction " + gid + " across shards "
          + names.get() + " is unknown: recording its commit decision in the decision log "
          + log.database() + " failed (" + e.getMessage() + "); recovery commits it on every"
          + " shard if the record was kept, else rolls it back", "08007", e);
    } catch (SQLException e) {
      throw new SQLException("cannot commit the transaction across shards " + names.get()
          + ": recording its commit decision in the decision log failed: "
          + log.database().redact(e.getMessage()) + "; the transaction was rolled back",
          e.getSQLState(), e);
    }
    steps.decided(gid);
    // The transaction is committed from here on, whatever a shard says.
    decided = true;
    final List<Callable<Void>> commits = new ArrayList<>();
    for (ShardBranch branch : branches) {
      commits.add(() -> {
        steps.committing(gid, branch.shard.name());
        branch.commitPrepared();
        return null;
      });
    }
    final List<Throwable> commitFailures = coordinator.inParallel(commits);
    rethrowErrors(commitFailures);
    boolean everywhere = true;
    for (int i = 0; i < commitFailures.size(); i++) {
      final Throwable failure = commitFailures.get(i);
      if (failure != null) {
        everywhere = false;
        final ShardBranch branch = branches.get(i);
        LOG.warn("Transaction {} is committed, but committing it on shard {} failed: {};"
            + " recovery finishes it there", gid, branch.shard.name(),
            branch.shard.redact(String.valueOf(failure.getMessage())));
      }
    }
    if (!everywhere) {
      // A branch finished by another process: this instance may have been fenced meanwhile.
      log.confirm(gid.instance());
    } else {
      try {
        log.forget(gid.text());
      } catch (SQLException e) {
        LOG.debug("Keeping the commit record of transaction {} for recovery to delete: {}",
            gid, log.database().redact(e.getMessage()));
      }
    }
  }

  /** Best effort: each shard commits in turn; a failure rolls back the shards after it. */
  private void commitOneByOne(ShardBranch lacking) throws SQLException {
    LOG.warn("Committing a transaction across shards {} one shard at a time, not atomic:"
        + " shard {} ({}) has no two-phase commit and the model accepts best effort",
        names.get(), lacking.shard.name(), lacking.productName());
    final List<String> committed = new ArrayList<>();
    for (ShardBranch branch : branches) {
      try {
        branch.commitOnePhase();
        committed.add(branch.shard.name());
      } catch (SQLException e) {
        if (committed.isEmpty()) {
          throw failed(branch, "committing", e);
        }
        inDoubt = true;
        branches.forEach(ShardBranch::rollbackQuietly);
        throw new SQLException(e.getMessage() + "; shards " + committed + " had committed"
            + " already (best effort, not atomic), the others were rolled back",
            e.getSQLState(), e);
      }
    }
  }

  /** An Error in any branch's step leaves the shards as a crash would: it goes on as is. */
  private static void rethrowErrors(List<Throwable> failures) {
    for (Throwable failure : failures) {
      if (failure instanceof Error error) {
        throw error;
      }
    }
  }

  /** An error that names the shard and what failed there, without its secrets. */
  private SQLException failed(ShardBranch branch, String step, Exception e) {
    if (!(e instanceof SQLException)) {
      branch.markBroken();
    }
    final String message = branch.shard.redact(String.valueOf(e.getMessage()));
    return new SQLException("cannot commit the transaction across shards " + names.get()
        + ": " + step + " it on shard '" + branch.shard.name() + "' failed: " + message
        + "; the transaction was rolled back on every shard",
        e instanceof SQLException s ? s.getSQLState() : null,
        e instanceof SQLException s ? s.getErrorCode() : 0,
        Secrets.redactChain(e, branch.shard::redact));
  }
}
