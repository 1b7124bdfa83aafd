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
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * One transaction over the shards it reaches. Each shard is enlisted by the first statement
 * that writes to it or reads it: the transaction takes one connection from the shard's pool,
 * gives it the transaction's isolation level, turns autocommit off (on MariaDB it also starts
 * an XA branch, which must come before any statement) and keeps the connection until it ends.
 * Reads go through the same connection ({@link #reading}), so that a transaction sees its own
 * writes, and row locks taken by a read last until the transaction ends.
 *
 * <p>{@link #commit()} commits locally when at most one shard was written to, and in two
 * phases when several were ({@link TwoPhaseCommit}); the shards that were only read commit
 * after them. Savepoints are set on every shard enlisted, and on shards enlisted later as
 * they open.
 *
 * <p>Statements run one at a time, but the scans of a statement open their shards'
 * branches from several threads at once: enlisting, savepoints and the list of branches are
 * thread-safe. Commit and rollback come from the transaction's owner.
 */
public final class ShardTransaction implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShardTransaction.class);

  /** SQLState of a transaction chosen to end a deadlock across shards. */
  public static final String DEADLOCK_SQL_STATE = "40P01";

  private final TransactionCoordinator coordinator;
  /** Whether this is one statement's own transaction (see {@link #connectionForOnlyStatement}). */
  private final boolean oneStatement;
  /** The JDBC isolation level every branch gets, or -1 for each shard's own. */
  private final int isolation;
  /** The order in which the coordinator began it: a deadlock ends the youngest. */
  private final long sequence;
  // Guarded by this.
  private final Map<String, ShardBranch> branches = new LinkedHashMap<>();
  private final Map<Object, AutoCloseable> attachments = new LinkedHashMap<>();
  /** The savepoints that are live, by number, in the order they were set. */
  private final List<Integer> savepoints = new ArrayList<>();
  /** Whether the only statement's connection was given out: nothing is enlisted after it. */
  private boolean sealed;
  /** Guards {@link #id}: a branch that opens (holding its own lock) may need it. */
  private final Object idLock = new Object();
  private @Nullable GlobalId id;
  private volatile State state = State.ACTIVE;
  /** Why the deadlock detector chose this transaction to end, once it did. */
  private volatile @Nullable String deadlock;

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

  ShardTransaction(TransactionCoordinator coordinator, TransactionOptions options,
      long sequence) {
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    this.oneStatement = options.oneStatement();
    this.isolation = options.isolation();
    this.savepoints.addAll(options.savepoints());
    this.sequence = sequence;
  }

  /**
   * The transaction's connection to a shard, enlisting the shard on first use, for a write:
   * the shard takes part in the commit. The caller must not close it, commit it, roll it
   * back or change its autocommit.
   *
   * @throws IllegalStateException if the transaction has ended
   */
  public Connection connection(ShardEndpoint shard) throws SQLException {
    final ShardBranch branch = enlist(shard);
    branch.wrote();
    return branch.connection();
  }

  /**
   * The shard as the transaction's reads see it: its connections are leases of the
   * transaction's connection to the shard (enlisting it at the first read), and closing one
   * ends the lease, not the connection.
   */
  public ShardEndpoint reading(ShardEndpoint shard) {
    return new BranchEndpoint(this, shard);
  }

  /** A lease of the transaction's connection to the shard, for a read. */
  Connection lease(ShardEndpoint shard) throws SQLException {
    final ShardBranch branch = enlist(shard);
    return BranchLease.of(branch);
  }

  /**
   * Whether reads may stream results from the transaction's connection to the shard while
   * other reads use it: not on MariaDB (see {@link BranchEndpoint#fetchSize}).
   */
  boolean streamsSharedReads(ShardEndpoint shard) {
    final ShardBranch branch;
    synchronized (this) {
      branch = branches.get(shard.name());
    }
    return branch == null || !branch.isOpen()
        || branch.backend() != CommitProtocol.MARIADB;
  }

  /** Gives up the branch whose connection a read found unresponsive: the transaction can
   * only roll back now. */
  void abandon(ShardEndpoint shard) {
    final ShardBranch branch;
    synchronized (this) {
      branch = branches.get(shard.name());
    }
    if (branch != null) {
      branch.markBroken();
    }
  }

  private ShardBranch enlist(ShardEndpoint shard) throws SQLException {
    final ShardBranch branch;
    final boolean first;
    synchronized (this) {
      checkActive();
      if (sealed) {
        throw new IllegalStateException("the transaction sent its only statement already");
      }
      final ShardBranch known = branches.get(shard.name());
      if (known != null) {
        branch = known;
        first = false;
      } else {
        branch = new ShardBranch(shard, branches.size(), savepoints);
        branches.put(shard.name(), branch);
        first = branches.size() == 1;
      }
    }
    if (first) {
      coordinator.live(this);
    }
    try {
      branch.open(coordinator, isolation, () -> branchId(branch.index));
    } catch (SQLException | RuntimeException e) {
      synchronized (this) {
        branches.remove(shard.name(), branch);
      }
      throw e;
    }
    return branch;
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
    final ShardBranch branch;
    synchronized (this) {
      checkActive();
      if (!oneStatement || sealed || !branches.isEmpty()) {
        return null;
      }
      branch = new ShardBranch(shard, 0, List.of());
      branches.put(shard.name(), branch);
      sealed = true;
    }
    try {
      return branch.openAutoCommitted(coordinator);
    } catch (SQLException | RuntimeException e) {
      synchronized (this) {
        branches.remove(shard.name(), branch);
        sealed = false;
      }
      throw e;
    }
  }

  /**
   * What the transaction keeps under {@code key} until it ends, created on first use: a
   * writer keeps there what must last as long as the rows it wrote are uncommitted (the
   * ticket that holds a resharding back, say). Closed when the transaction ends, after its
   * shards commit or roll back.
   */
  public synchronized <T extends AutoCloseable> T attachment(Object key, Class<T> type,
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

  /** Runs the {@link CommitCheck}s of the transaction's attachments. */
  private void checkCommit() throws SQLException {
    final List<CommitCheck> checks = new ArrayList<>();
    synchronized (this) {
      attachments.values().stream().filter(CommitCheck.class::isInstance)
          .map(CommitCheck.class::cast).forEach(checks::add);
    }
    for (CommitCheck check : checks) {
      check.check();
    }
  }

  /**
   * Closes and forgets what the transaction keeps under {@code key}, if anything: a writer
   * that has written nothing under it yet gives it up (a ticket it must not hold while it
   * waits, say).
   */
  public void release(Object key) {
    final AutoCloseable known;
    synchronized (this) {
      known = attachments.remove(key);
    }
    if (known != null) {
      try {
        known.close();
      } catch (Exception e) {
        LOG.warn("releasing what a transaction kept failed", e);
      }
    }
  }

  // Savepoints

  /**
   * Sets savepoint {@code number} on every shard enlisted, and on every shard enlisted later
   * when it opens.
   *
   * @throws SQLException naming the shard that refused it; the savepoint is not set then
   */
  public void savepoint(int number) throws SQLException {
    final List<ShardBranch> now;
    synchronized (this) {
      checkActive();
      savepoints.add(number);
      now = List.copyOf(branches.values());
    }
    onEveryBranch(now, "setting a savepoint", branch -> branch.savepoint(number));
  }

  /**
   * Undoes on every shard what the transaction did since savepoint {@code number}; the
   * savepoints set after it are forgotten, the savepoint itself stays.
   *
   * @throws SQLException naming the shard that failed; the transaction cannot go on then
   */
  public void rollbackTo(int number) throws SQLException {
    final List<Integer> forgotten = forgetAfter(number, false);
    onEveryBranch(branches(), "rolling back to a savepoint",
        branch -> branch.rollbackTo(number, forgotten));
  }

  /**
   * Forgets savepoint {@code number} and those set after it; the work stays.
   *
   * @throws SQLException naming the shard that failed
   */
  public void releaseSavepoint(int number) throws SQLException {
    final List<Integer> forgotten = forgetAfter(number, true);
    onEveryBranch(branches(), "releasing a savepoint",
        branch -> branch.release(number, forgotten));
  }

  /**
   * Forgets the savepoints set after {@code number}, and it too when {@code itself}; returns
   * those set after it.
   */
  private synchronized List<Integer> forgetAfter(int number, boolean itself) {
    checkActive();
    final int at = savepoints.indexOf(number);
    if (at < 0) {
      throw new IllegalStateException("savepoint " + number + " is not set");
    }
    final List<Integer> after = List.copyOf(savepoints.subList(at + 1, savepoints.size()));
    savepoints.subList(itself ? at : at + 1, savepoints.size()).clear();
    return after;
  }

  private synchronized List<ShardBranch> branches() {
    return List.copyOf(branches.values());
  }

  /** A step of a savepoint on one branch. */
  @FunctionalInterface
  private interface BranchStep {
    void run(ShardBranch branch) throws SQLException;
  }

  private void onEveryBranch(List<ShardBranch> branches, String step, BranchStep action)
      throws SQLException {
    for (ShardBranch branch : branches) {
      try {
        action.run(branch);
      } catch (SQLException e) {
        throw onShard(branch, step, e);
      }
    }
  }

  private SQLException onShard(ShardBranch branch, String step, SQLException e) {
    return new SQLException(step + " on shard '" + branch.shard.name() + "' failed: "
        + branch.shard.redact(String.valueOf(e.getMessage())), e.getSQLState(),
        e.getErrorCode(), Secrets.redactChain(e, branch.shard::redact));
  }

  /** The names of the shards enlisted so far, in the order they were. */
  public synchronized List<String> shards() {
    return List.copyOf(branches.keySet());
  }

  /** The names of the shards written to so far, in the order they were enlisted. */
  public synchronized List<String> shardsWritten() {
    return branches.values().stream().filter(ShardBranch::hasWritten)
        .map(branch -> branch.shard.name()).toList();
  }

  public State state() {
    return state;
  }

  /** Whether the transaction neither committed nor rolled back yet. */
  public boolean isActive() {
    return state == State.ACTIVE;
  }

  /** The JDBC isolation level of the transaction's branches, or -1 for each shard's own. */
  public int isolation() {
    return isolation;
  }

  /**
   * Why the deadlock detector chose this transaction to end a deadlock across shards, or null
   * if it did not: a statement of it that failed since then failed for this reason.
   */
  public @Nullable String deadlock() {
    return deadlock;
  }

  /** Marks the transaction as the one that ends a deadlock; its waiting statements are
   * canceled next. */
  void chosenToEndDeadlock(String why) {
    deadlock = why;
  }

  long sequence() {
    return sequence;
  }

  /** The branches open now, by shard name, with each shard's session id. */
  synchronized List<ShardBranch> openBranches() {
    return branches.values().stream().filter(ShardBranch::isOpen).toList();
  }

  /**
   * Commits the work on every enlisted shard, and returns their connections: locally when
   * at most one shard was written to, with two-phase commit when several were; shards that
   * were only read commit after those. Once the decision to commit is recorded the
   * transaction is committed, even if a shard then fails to commit (recovery finishes it
   * there).
   *
   * @throws SQLException if the transaction could not commit; it is then rolled back on every
   *     shard, unless its state is {@link State#IN_DOUBT}
   */
  public void commit() throws SQLException {
    final List<ShardBranch> all;
    synchronized (this) {
      checkActive();
      all = List.copyOf(branches.values());
    }
    boolean ended = false;
    try {
      final List<ShardBranch> writers = new ArrayList<>();
      final List<ShardBranch> readers = new ArrayList<>();
      for (ShardBranch branch : all) {
        // Under SERIALIZABLE a shard may refuse to commit what a transaction only read.
        (branch.hasWritten() || isolation == java.sql.Connection.TRANSACTION_SERIALIZABLE
            ? writers : readers).add(branch);
      }
      checkCommit();
      if (writers.size() == 1) {
        commitOnePhase(writers.get(0), all.size());
      } else if (writers.size() > 1) {
        final TwoPhaseCommit protocol = new TwoPhaseCommit(coordinator, this::id, writers,
            this::shardNames, this::checkCommit);
        try {
          protocol.commit();
        } finally {
          if (protocol.inDoubt()) {
            state = State.IN_DOUBT;
          } else if (protocol.decided()) {
            state = State.COMMITTED;
          }
        }
      }
      if (state == State.ACTIVE) {
        state = State.COMMITTED;
      }
      endReads(readers);
      ended = true;
    } catch (SQLException | RuntimeException e) {
      ended = true;
      if (state == State.ACTIVE) {
        state = State.ROLLED_BACK;
        rollbackAll(all);
      }
      throw e;
    } finally {
      if (!ended) {
        // An Error: the shards are left as a crash of this process would leave them.
        state = State.IN_DOUBT;
        all.forEach(ShardBranch::abandonAsInCrash);
      }
      releaseAll(all);
    }
  }

  private void commitOnePhase(ShardBranch branch, int enlisted) throws SQLException {
    try {
      branch.commitOnePhase();
    } catch (SQLException | RuntimeException e) {
      if (!(e instanceof SQLException)) {
        branch.markBroken();
      }
      final String name = branch.shard.name();
      throw new SQLException("cannot commit on shard '" + name + "': "
          + branch.shard.redact(String.valueOf(e.getMessage()))
          + (enlisted == 1 ? "" : "; the transaction was rolled back on every shard"),
          e instanceof SQLException s ? s.getSQLState() : null,
          e instanceof SQLException s ? s.getErrorCode() : 0,
          Secrets.redactChain(e, branch.shard::redact));
    }
  }

  /** Ends the branches that were only read, in parallel: a failure there loses nothing. */
  private void endReads(List<ShardBranch> readers) {
    final List<Callable<Void>> ends = new ArrayList<>();
    for (ShardBranch reader : readers) {
      ends.add(() -> {
        try {
          reader.commitOnePhase();
        } catch (SQLException | RuntimeException e) {
          reader.markBroken();
          LOG.debug("ending the reads on shard {} failed: {}", reader.shard.name(),
              reader.shard.redact(String.valueOf(e.getMessage())));
        }
        return null;
      });
    }
    coordinator.inParallel(ends);
  }

  /** Undoes the work on every enlisted shard and returns their connections; never throws. */
  public void rollback() {
    final List<ShardBranch> all;
    synchronized (this) {
      if (state != State.ACTIVE) {
        return;
      }
      state = State.ROLLED_BACK;
      all = List.copyOf(branches.values());
    }
    try {
      rollbackAll(all);
    } finally {
      releaseAll(all);
    }
  }

  /** Rolls back unless the transaction ended. */
  @Override public void close() {
    rollback();
  }

  /** The coordinator that began this transaction. */
  public TransactionCoordinator coordinator() {
    return coordinator;
  }

  private void rollbackAll(List<ShardBranch> all) {
    final List<Callable<Void>> rollbacks = new ArrayList<>();
    for (ShardBranch branch : all) {
      rollbacks.add(() -> {
        branch.rollbackQuietly();
        return null;
      });
    }
    coordinator.inParallel(rollbacks);
  }

  /** The branch id of the {@code index}th shard, made when first needed. */
  private String branchId(int index) {
    return id().branch(index);
  }

  private GlobalId id() {
    synchronized (idLock) {
      if (id == null) {
        id = coordinator.newId();
      }
      return id;
    }
  }

  private String shardNames() {
    final List<String> names = shards();
    return "'" + String.join("', '", names) + "'";
  }

  private void releaseAll(List<ShardBranch> all) {
    all.forEach(ShardBranch::release);
    final List<AutoCloseable> ending;
    synchronized (this) {
      branches.clear();
      ending = new ArrayList<>(attachments.values());
      attachments.clear();
    }
    coordinator.ended(this);
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
    final State now = state;
    if (now != State.ACTIVE) {
      throw new IllegalStateException("the transaction has " + (now == State.COMMITTED
          ? "committed" : now == State.ROLLED_BACK ? "rolled back" : "ended in doubt"));
    }
  }

  @Override public String toString() {
    final GlobalId known;
    synchronized (idLock) {
      known = id;
    }
    return "transaction " + (known != null ? known.text() : "#" + sequence);
  }
}
