package io.shardset.transaction;

import io.shardset.execution.ShardEndpoint;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One shard's part of a transaction: the connection the transaction holds there, where its
 * branch is in the commit protocol, and the savepoints set on it.
 *
 * <p>A branch is opened by the first statement that reaches its shard, to write or to read,
 * possibly on a scan thread while others open other branches of the same transaction:
 * {@link #open} and everything that uses the connection's state are synchronized on the
 * branch. Scans read through leases ({@link #lease}); the connection goes back to its pool
 * once the transaction has ended and the last lease is closed, so that a scan still reading
 * when the client commits never reads from a connection the pool gave to someone else.
 */
final class ShardBranch {
  private static final Logger LOG = LoggerFactory.getLogger(ShardBranch.class);

  /** Where a branch is in its life. */
  enum Phase { NEW, ACTIVE, PREPARED, ENDED }

  final ShardEndpoint shard;
  final int index;
  private @Nullable Connection connection;
  private @Nullable CommitProtocol backend;
  /** The branch id, once the branch was started (MariaDB) or prepared. */
  private @Nullable String id;
  private Phase phase = Phase.NEW;
  /** Whether the connection is in a state it must not be pooled in. */
  private boolean broken;
  /** Whether a statement wrote through this branch: only such branches take part in a
   * two-phase commit. */
  private boolean wrote;
  /** The savepoints set on the connection, by the transaction's savepoint number. */
  private final Map<Integer, Savepoint> savepoints = new HashMap<>();
  /** The savepoints to set when the connection opens, in order. */
  private final List<Integer> pendingSavepoints;
  /** Leases handed to scans and not closed yet. */
  private int leases;
  /** Whether the transaction let go of the branch; the connection waits for the leases. */
  private boolean released;
  /** The shard's id of the connection's session (PostgreSQL's backend pid, say), once read;
   * what the deadlock detector maps lock waits by. */
  private volatile long sessionId = -1;

  /**
   * A branch not opened yet.
   *
   * @param savepoints the transaction's live savepoints, set on the connection when it opens
   *     (a rollback to one of them undoes this branch's work too)
   */
  ShardBranch(ShardEndpoint shard, int index, List<Integer> savepoints) {
    this.shard = shard;
    this.index = index;
    this.pendingSavepoints = new ArrayList<>(savepoints);
  }

  /**
   * Opens the branch unless it is open: takes a connection from the shard's pool, gives it
   * the isolation level, turns autocommit off and starts the branch (MariaDB's XA START, which
   * must come before any statement), then sets the savepoints the transaction holds.
   *
   * @param isolation the JDBC isolation level to set, or -1 to keep the connection's
   * @param branchId makes the branch id, for backends that need one from the start
   */
  synchronized Connection open(TransactionCoordinator coordinator, int isolation,
      Supplier<String> branchId) throws SQLException {
    if (connection != null) {
      return connection;
    }
    if (released) {
      throw new IllegalStateException("the transaction let go of shard '" + shard.name()
          + "'");
    }
    final Connection opened = shard.connect();
    try {
      final CommitProtocol protocol = coordinator.backend(shard, opened);
      if (isolation >= 0) {
        opened.setTransactionIsolation(isolation);
      }
      opened.setAutoCommit(false);
      if (protocol == CommitProtocol.MARIADB) {
        id = protocol.enlist(opened, branchId.get());
      }
      backend = protocol;
      connection = opened;
      phase = Phase.ACTIVE;
      sessionId = sessionIdOf(protocol, opened, id);
      for (int savepoint : pendingSavepoints) {
        savepoints.put(savepoint, opened.setSavepoint(savepointName(savepoint)));
      }
      pendingSavepoints.clear();
    } catch (SQLException | RuntimeException e) {
      connection = null;
      backend = null;
      phase = Phase.NEW;
      savepoints.clear();
      // Never pooled in a state the transaction left it in (an XA branch, an isolation).
      closePhysically(opened);
      closeQuietly(opened);
      throw e;
    }
    coordinator.enlisted(shard);
    return opened;
  }

  /**
   * Opens the branch on a connection that stays in autocommit mode, for the only statement
   * of a statement's own transaction: the shard commits that statement as it runs it.
   */
  synchronized Connection openAutoCommitted(TransactionCoordinator coordinator)
      throws SQLException {
    final Connection opened = shard.connect();
    try {
      if (!opened.getAutoCommit()) {
        opened.setAutoCommit(true);
      }
      backend = coordinator.backend(shard, opened);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(opened);
      throw e;
    }
    connection = opened;
    // Nothing to commit or roll back: the shard ends the statement's own transaction.
    phase = Phase.ENDED;
    wrote = true;
    coordinator.enlisted(shard);
    return opened;
  }

  private long sessionIdOf(CommitProtocol protocol, Connection opened,
      @Nullable String branchId) {
    try {
      return protocol.sessionId(opened, branchId);
    } catch (SQLException | RuntimeException e) {
      LOG.debug("reading the session id on shard {} failed", shard.name(), e);
      return -1;
    }
  }

  /** The open connection. */
  synchronized Connection connection() {
    if (connection == null) {
      throw new IllegalStateException("shard '" + shard.name() + "' is not enlisted");
    }
    return connection;
  }

  synchronized boolean isOpen() {
    return connection != null;
  }

  synchronized void wrote() {
    wrote = true;
  }

  synchronized boolean hasWritten() {
    return wrote;
  }

  synchronized Phase phase() {
    return phase;
  }

  synchronized @Nullable String id() {
    return id;
  }

  synchronized CommitProtocol backend() {
    if (backend == null) {
      throw new IllegalStateException("shard '" + shard.name() + "' is not enlisted");
    }
    return backend;
  }

  /** The product name the shard's driver reports, for messages. */
  synchronized String productName() {
    try {
      return connection().getMetaData().getDatabaseProductName();
    } catch (SQLException | RuntimeException e) {
      return backend == null ? "unknown" : backend.productName();
    }
  }

  synchronized void markBroken() {
    broken = true;
  }

  /**
   * The shard's id of the connection's session, read when the branch opened (a lock wait
   * blocks the connection, so it cannot be asked then); -1 when unknown.
   */
  long sessionId() {
    return sessionId;
  }

  // Savepoints

  /** Sets a savepoint on the connection, or when it opens. */
  synchronized void savepoint(int number) throws SQLException {
    if (connection == null) {
      if (!released) {
        pendingSavepoints.add(number);
      }
      return;
    }
    if (phase != Phase.ACTIVE) {
      return;
    }
    savepoints.put(number, connection.setSavepoint(savepointName(number)));
  }

  /** Undoes what the branch did since the savepoint; the savepoints set after it go. */
  synchronized void rollbackTo(int number, List<Integer> forgotten) throws SQLException {
    pendingSavepoints.removeAll(forgotten);
    if (connection == null || phase != Phase.ACTIVE) {
      return;
    }
    forgotten.forEach(savepoints::remove);
    final Savepoint savepoint = savepoints.get(number);
    if (savepoint != null) {
      connection.rollback(savepoint);
    }
  }

  /** Forgets a savepoint and those set after it; the work stays. */
  synchronized void release(int number, List<Integer> forgotten) throws SQLException {
    pendingSavepoints.remove(Integer.valueOf(number));
    pendingSavepoints.removeAll(forgotten);
    if (connection == null || phase != Phase.ACTIVE) {
      return;
    }
    forgotten.forEach(savepoints::remove);
    final Savepoint savepoint = savepoints.remove(number);
    if (savepoint != null) {
      connection.releaseSavepoint(savepoint);
    }
  }

  /** The name a savepoint goes by on the shards. */
  static String savepointName(int number) {
    return "shardset_" + number;
  }

  // Commit protocol steps; the caller names the shard in its errors.

  synchronized void commitOnePhase() throws SQLException {
    if (phase == Phase.ENDED || connection == null) {
      return;
    }
    backend().commitOnePhase(connection, id);
    phase = Phase.ENDED;
  }

  synchronized void prepare(String branchId) throws SQLException {
    if (id == null) {
      id = branchId;
    }
    backend().prepare(connection(), id, shard.name());
    phase = Phase.PREPARED;
  }

  synchronized void commitPrepared() throws SQLException {
    try {
      backend().commitPrepared(connection(), id);
      phase = Phase.ENDED;
    } catch (SQLException | RuntimeException e) {
      broken = true;
      throw e;
    }
  }

  /** Rolls the branch back unless it ended: by id when prepared; never throws. */
  synchronized void rollbackQuietly() {
    if (connection == null || phase == Phase.ENDED || phase == Phase.NEW) {
      phase = Phase.ENDED;
      return;
    }
    try {
      if (phase == Phase.PREPARED) {
        backend().rollbackPrepared(connection, id);
      } else {
        backend().rollback(connection, id);
      }
      phase = Phase.ENDED;
    } catch (SQLException | RuntimeException e) {
      broken = true;
      LOG.warn("Rolling back on shard {} failed: {}{}", shard.name(),
          shard.redact(String.valueOf(e.getMessage())),
          phase == Phase.PREPARED ? "; recovery rolls it back" : "");
      phase = Phase.ENDED;
    }
  }

  /** Leaves the branch as a crash of this process would: the connection is never pooled. */
  synchronized void abandonAsInCrash() {
    broken = true;
  }

  // Leases

  /** A lease of the connection for a scan; the branch must be open. */
  synchronized void lease() {
    if (released) {
      throw new IllegalStateException("the transaction let go of shard '" + shard.name()
          + "'");
    }
    leases++;
  }

  /** Ends a lease; the last one of a released branch returns the connection. */
  void unlease() {
    final boolean last;
    synchronized (this) {
      leases--;
      last = released && leases == 0;
    }
    if (last) {
      returnConnection();
    }
  }

  /**
   * Lets go of the branch once the transaction ended: its connection goes back to the pool
   * (or is closed, when it is broken or left prepared) when no scan holds a lease of it.
   */
  void release() {
    final boolean now;
    synchronized (this) {
      if (released) {
        return;
      }
      released = true;
      now = leases == 0;
    }
    if (now) {
      returnConnection();
    }
  }

  private void returnConnection() {
    final Connection held;
    final boolean discard;
    synchronized (this) {
      held = connection;
      discard = broken || phase != Phase.ENDED;
    }
    if (held == null) {
      return;
    }
    if (discard) {
      // Left prepared or in an unknown state: never back into the pool. The driver's own
      // connection closes first, as in a crash: the pool would roll back what it holds
      // open on its way back, and H2 would then roll back a prepared branch too.
      closePhysically(held);
      shard.abandon(held, Runnable::run);
    } else {
      try {
        held.setAutoCommit(true);
      } catch (SQLException | RuntimeException e) {
        // A broken connection: the pool checks it before handing it out again.
      }
    }
    closeQuietly(held);
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
