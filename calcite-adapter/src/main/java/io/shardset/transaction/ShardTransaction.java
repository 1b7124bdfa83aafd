package io.shardset.transaction;

import io.shardset.execution.Secrets;
import io.shardset.execution.ShardEndpoint;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One transaction over the shards it writes to. Each shard is enlisted on first use: the
 * transaction takes one connection from the shard's pool, turns autocommit off (on MariaDB
 * it also starts an XA branch, which must come before any statement) and keeps the
 * connection until it ends.
 *
 * <p>{@link #commit()} commits locally when one shard was enlisted, and in two phases when
 * several were (see {@link TransactionCoordinator}). Not thread-safe: one statement at a time
 * writes in it.
 */
public final class ShardTransaction implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShardTransaction.class);

  private final TransactionCoordinator coordinator;
  private final Map<String, Branch> shards = new LinkedHashMap<>();
  /** What the transaction's writers keep until it ends (tickets of the model version they
   * routed under, say), by their key; closed when it ends, in reverse order. */
  private final Map<Object, AutoCloseable> attachments = new LinkedHashMap<>();
  /** The transaction's id, made when first needed: an XA branch or a prepare. */
  private @Nullable GlobalId id;
  private State state = State.ACTIVE;
  /** Whether this is one statement's own transaction (see {@link #connectionForOnlyStatement}). */
  private final boolean oneStatement;
  /** Whether the only statement's connection was given out: nothing is enlisted after it. */
  private boolean sealed;

  /** Where a transaction is in its life. */
  public enum State {
    ACTIVE,
    COMMITTED,
    ROLLED_BACK,
    /**
     * Ended without a known all-or-nothing outcome: recording its commit decision failed in a
     * way that leaves open whether the record was kept (recovery then finishes it either
     * way), or a best-effort commit failed after some shards had committed.
     */
    IN_DOUBT
  }

  /** Where one shard's branch of the transaction is. */
  private enum Phase { ACTIVE, PREPARED, ENDED }

  /** A shard taking part, the connection the transaction holds on it, and its branch. */
  private static final class Branch {
    final ShardEndpoint shard;
    final Connection connection;
    final CommitProtocol backend;
    final int index;
    /** The branch id, once the branch was started or prepared. */
    @Nullable String id;
    Phase phase = Phase.ACTIVE;
    /** Whether the connection is in a state it must not be pooled in. */
    boolean broken;

    Branch(ShardEndpoint shard, Connection connection, CommitProtocol backend, int index) {
      this.shard = shard;
      this.connection = connection;
      this.backend = backend;
      this.index = index;
    }
  }

  ShardTransaction(TransactionCoordinator coordinator, boolean oneStatement) {
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    this.oneStatement = oneStatement;
  }

  /**
   * The transaction's connection to a shard, enlisting the shard on first use. The caller
   * must not close it, commit it, roll it back or change its autocommit.
   *
   * @throws IllegalStateException if the transaction has ended
   */
  public Connection connection(ShardEndpoint shard) throws SQLException {
    checkActive();
    if (sealed) {
      throw new IllegalStateException("the transaction sent its only statement already");
    }
    final Branch known = shards.get(shard.name());
    if (known != null) {
      return known.connection;
    }
    final Connection connection = shard.connect();
    try {
      connection.setAutoCommit(false);
      final Branch branch = new Branch(shard, connection,
          coordinator.backend(shard, connection), shards.size());
      if (branch.backend == CommitProtocol.MARIADB) {
        branch.id = branch.backend.enlist(connection, branchId(branch));
      }
      shards.put(shard.name(), branch);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(connection);
      throw e;
    }
    coordinator.enlisted(shard);
    return connection;
  }

  /**
   * The connection for the only statement of a transaction that is one statement's own
   * ({@link TransactionCoordinator#beginStatement}), when no shard is enlisted yet: it stays in
   * autocommit mode, so the shard commits the statement as it runs it, atomically, and the
   * commit costs no round trip of its own. The caller must send exactly one statement on it,
   * as the statement's last work: nothing is enlisted after it, and {@link #rollback} cannot
   * undo it once it ran. Null when the transaction cannot take this way; the caller then
   * uses {@link #connection}.
   */
  public @Nullable Connection connectionForOnlyStatement(ShardEndpoint shard)
      throws SQLException {
    checkActive();
    if (!oneStatement || sealed || !shards.isEmpty()) {
      return null;
    }
    final Connection connection = shard.connect();
    try {
      if (!connection.getAutoCommit()) {
        connection.setAutoCommit(true);
      }
      final Branch branch = new Branch(shard, connection,
          coordinator.backend(shard, connection), 0);
      // Nothing to commit or roll back: the shard ends the statement's own transaction.
      branch.phase = Phase.ENDED;
      shards.put(shard.name(), branch);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(connection);
      throw e;
    }
    sealed = true;
    coordinator.enlisted(shard);
    return connection;
  }

  /**
   * What the transaction keeps under {@code key} until it ends, created on first use: a
   * writer keeps there what must last as long as the rows it wrote are uncommitted (the
   * ticket that holds a resharding back, say). Closed when the transaction ends, after its
   * shards commit or roll back.
   */
  public <T extends AutoCloseable> T attachment(Object key, Class<T> type,
      Supplier<? extends T> create) {
    checkActive();
    final AutoCloseable known = attachments.get(key);
    if (known != null) {
      return type.cast(known);
    }
    final T created = Objects.requireNonNull(create.get(), "attachment");
    attachments.put(key, created);
    return created;
  }

  /**
   * Closes and forgets what the transaction keeps under {@code key}, if anything: a writer
   * that has written nothing under it yet gives it up (a ticket it must not hold while it
   * waits, say).
   */
  public void release(Object key) {
    final AutoCloseable known = attachments.remove(key);
    if (known != null) {
      try {
        known.close();
      } catch (Exception e) {
        LOG.warn("releasing what a transaction kept failed", e);
      }
    }
  }

  /** The names of the shards enlisted so far, in the order they were. */
  public List<String> shards() {
    return List.copyOf(shards.keySet());
  }

  public State state() {
    return state;
  }

  /** Whether the transaction neither committed nor rolled back yet. */
  public boolean isActive() {
    return state == State.ACTIVE;
  }

  /**
   * Commits the work on every enlisted shard, and returns their connections: locally when
   * one shard is enlisted, with two-phase commit when several are. Once the decision to
   * commit is recorded the transaction is committed, even if a shard then fails to commit
   * (recovery finishes it there).
   *
   * @throws SQLException if the transaction could not commit; it is then rolled back on every
   *     shard, unless its state is {@link State#IN_DOUBT}
   */
  public void commit() throws SQLException {
    checkActive();
    boolean ended = false;
    try {
      if (shards.size() == 1) {
        commitOnePhase(shards.values().iterator().next());
      } else if (shards.size() > 1) {
        commitAcrossShards();
      }
      if (state == State.ACTIVE) {
        state = State.COMMITTED;
      }
      ended = true;
    } catch (SQLException | RuntimeException e) {
      ended = true;
      if (state == State.ACTIVE) {
        rollbackBranches();
      }
      throw e;
    } finally {
      if (!ended) {
        // An Error: the shards are left as a crash of this process would leave them.
        state = State.IN_DOUBT;
        shards.values().forEach(branch -> branch.broken = true);
      }
      release();
    }
  }

  /** Undoes the work on every enlisted shard and returns their connections; never throws. */
  public void rollback() {
    if (state != State.ACTIVE) {
      return;
    }
    rollbackBranches();
    release();
  }

  /** Rolls back unless the transaction ended. */
  @Override public void close() {
    rollback();
  }

  /** The coordinator that began this transaction. */
  public TransactionCoordinator coordinator() {
    return coordinator;
  }

  private void commitOnePhase(Branch branch) throws SQLException {
    if (branch.phase == Phase.ENDED) {
      // The only statement's connection, which committed it.
      return;
    }
    try {
      branch.backend.commitOnePhase(branch.connection, branch.id);
      branch.phase = Phase.ENDED;
    } catch (SQLException | RuntimeException e) {
      throw failed(branch, "committing", e);
    }
  }

  private void commitAcrossShards() throws SQLException {
    final List<Branch> branches = List.copyOf(shards.values());
    final Branch lacking = branches.stream().filter(b -> !b.backend.hasTwoPhaseCommit())
        .findFirst().orElse(null);
    if (lacking != null) {
      if (!coordinator.settings().bestEffort()) {
        throw new SQLException("cannot commit a transaction across shards " + names()
            + " atomically: shard '" + lacking.shard.name() + "' (" + productName(lacking)
            + ") has no two-phase commit ShardSet can use; the transaction was rolled back."
            + " A model may accept commits shard by shard, not atomic, with \"transactions\":"
            + " {\"bestEffort\": true}", "0A000");
      }
      commitOneByOne(branches, lacking);
      return;
    }
    final DecisionLog log = coordinator.openLog(false);
    final GlobalId gid = id();
    if (!gid.log().equals(log.logId())) {
      throw new SQLException("cannot commit a transaction across shards " + names()
          + ": it began while its decision log could not be opened; the transaction was"
          + " rolled back", "25000");
    }
    coordinator.started(gid);
    try {
      twoPhaseCommit(log, gid, branches);
    } finally {
      coordinator.finished(gid);
    }
  }

  private void twoPhaseCommit(DecisionLog log, GlobalId gid, List<Branch> branches)
      throws SQLException {
    final Steps steps = coordinator.steps();
    for (Branch branch : branches) {
      steps.preparing(gid, branch.shard.name());
      try {
        branch.backend.prepare(branch.connection, branchId(branch), branch.shard.name());
        branch.phase = Phase.PREPARED;
      } catch (SQLException | RuntimeException e) {
        throw failed(branch, "preparing", e);
      }
    }
    steps.prepared(gid);
    try {
      log.record(gid, coordinator.settings().scope(), shards());
    } catch (DecisionUnknownException e) {
      state = State.IN_DOUBT;
      branches.forEach(branch -> branch.broken = true);
      throw new SQLException("the outcome of transaction " + gid + " across shards "
          + names() + " is unknown: recording its commit decision in the decision log "
          + log.database() + " failed (" + e.getMessage() + "); recovery commits it on every"
          + " shard if the record was kept, else rolls it back", "08007", e);
    } catch (SQLException e) {
      throw new SQLException("cannot commit the transaction across shards " + names()
          + ": recording its commit decision in the decision log failed: "
          + log.database().redact(e.getMessage()) + "; the transaction was rolled back",
          e.getSQLState(), e);
    }
    steps.decided(gid);
    // The transaction is committed from here on, whatever a shard says.
    state = State.COMMITTED;
    boolean everywhere = true;
    for (Branch branch : branches) {
      steps.committing(gid, branch.shard.name());
      try {
        branch.backend.commitPrepared(branch.connection, branch.id);
        branch.phase = Phase.ENDED;
      } catch (SQLException | RuntimeException e) {
        everywhere = false;
        branch.broken = true;
        LOG.warn("Transaction {} is committed, but committing it on shard {} failed: {};"
            + " recovery finishes it there", gid, branch.shard.name(),
            branch.shard.redact(String.valueOf(e.getMessage())));
      }
    }
    if (everywhere) {
      try {
        log.forget(gid.text());
      } catch (SQLException e) {
        LOG.debug("Keeping the commit record of transaction {} for recovery to delete: {}",
            gid, log.database().redact(e.getMessage()));
      }
    }
  }

  /** Best effort: each shard commits in turn; a failure rolls back the shards after it. */
  private void commitOneByOne(List<Branch> branches, Branch lacking) throws SQLException {
    LOG.warn("Committing a transaction across shards {} one shard at a time, not atomic:"
        + " shard {} ({}) has no two-phase commit and the model accepts best effort",
        names(), lacking.shard.name(), productName(lacking));
    final List<String> committed = new ArrayList<>();
    for (Branch branch : branches) {
      try {
        commitOnePhase(branch);
        committed.add(branch.shard.name());
      } catch (SQLException e) {
        if (committed.isEmpty()) {
          throw e;
        }
        state = State.IN_DOUBT;
        rollbackBranches();
        throw new SQLException(e.getMessage() + "; shards " + committed + " had committed"
            + " already (best effort, not atomic), the others were rolled back",
            e.getSQLState(), e);
      }
    }
  }

  /** Rolls back every branch not ended: prepared ones by id, the others on their own. */
  private void rollbackBranches() {
    if (state == State.ACTIVE) {
      state = State.ROLLED_BACK;
    }
    for (Branch branch : shards.values()) {
      try {
        if (branch.phase == Phase.PREPARED) {
          branch.backend.rollbackPrepared(branch.connection, branch.id);
        } else if (branch.phase == Phase.ACTIVE) {
          branch.backend.rollback(branch.connection, branch.id);
        }
        branch.phase = Phase.ENDED;
      } catch (SQLException | RuntimeException e) {
        branch.broken = true;
        LOG.warn("Rolling back on shard {} failed: {}{}", branch.shard.name(),
            branch.shard.redact(String.valueOf(e.getMessage())),
            branch.phase == Phase.PREPARED ? "; recovery rolls it back" : "");
      }
    }
  }

  /** An error that names the shard and what failed there, without its secrets. */
  private SQLException failed(Branch branch, String step, Exception e) {
    if (!(e instanceof SQLException)) {
      branch.broken = true;
    }
    final String name = branch.shard.name();
    final String message = branch.shard.redact(String.valueOf(e.getMessage()));
    final String what = shards.size() == 1 ? "cannot commit on shard '" + name + "': "
        : "cannot commit the transaction across shards " + names() + ": " + step
            + " it on shard '" + name + "' failed: ";
    final SQLException error = new SQLException(what + message
        + (shards.size() == 1 ? "" : "; the transaction was rolled back on every shard"),
        e instanceof SQLException s ? s.getSQLState() : null,
        e instanceof SQLException s ? s.getErrorCode() : 0,
        Secrets.redactChain(e, branch.shard::redact));
    return error;
  }

  /** The branch's id, made when first needed. */
  private String branchId(Branch branch) {
    if (branch.id == null) {
      branch.id = id().branch(branch.index);
    }
    return branch.id;
  }

  private GlobalId id() {
    if (id == null) {
      id = coordinator.newId();
    }
    return id;
  }

  private String names() {
    return "'" + String.join("', '", shards.keySet()) + "'";
  }

  private static String productName(Branch branch) {
    try {
      return branch.connection.getMetaData().getDatabaseProductName();
    } catch (SQLException | RuntimeException e) {
      return branch.backend.productName();
    }
  }

  private void release() {
    for (Branch branch : shards.values()) {
      if (branch.broken || branch.phase != Phase.ENDED) {
        // Left prepared or in an unknown state: never back into the pool. The driver's own
        // connection closes first, as in a crash: the pool would roll back what it holds
        // open on its way back, and H2 would then roll back a prepared branch too.
        closePhysically(branch.connection);
        branch.shard.abandon(branch.connection, Runnable::run);
      } else {
        try {
          branch.connection.setAutoCommit(true);
        } catch (SQLException | RuntimeException e) {
          // A broken connection: the pool checks it before handing it out again.
        }
      }
      closeQuietly(branch.connection);
    }
    shards.clear();
    final List<AutoCloseable> ending = new ArrayList<>(attachments.values());
    attachments.clear();
    Collections.reverse(ending);
    for (AutoCloseable attachment : ending) {
      try {
        attachment.close();
      } catch (Exception e) {
        LOG.warn("releasing what a transaction kept failed", e);
      }
    }
  }

  private void checkActive() {
    if (state != State.ACTIVE) {
      throw new IllegalStateException("the transaction has " + (state == State.COMMITTED
          ? "committed" : state == State.ROLLED_BACK ? "rolled back" : "ended in doubt"));
    }
  }

  private static void closePhysically(Connection connection) {
    try {
      connection.unwrap(Connection.class).close();
    } catch (SQLException | RuntimeException e) {
      // Broken already: the server ends its session.
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException | RuntimeException e) {
      // Returned to the pool or given up: nothing else to do.
    }
  }
}
