package io.shardset.session;

import io.shardset.transaction.ShardTransaction;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One statement's hold on the transaction it writes in: its own, in autocommit mode, which
 * {@link #complete} commits, or its session's, which it leaves open. Closing a write that did
 * not complete rolls back its own transaction, or aborts its session's.
 */
public final class SessionWrite implements AutoCloseable {
  private final ShardSession session;
  private final ShardTransaction transaction;
  private final boolean owned;
  private final boolean locksRows;
  private boolean ended;
  /** Set when a read of the rows this write changes could not lock them. */
  private final AtomicBoolean readWithoutLock = new AtomicBoolean();

  SessionWrite(ShardSession session, ShardTransaction transaction, boolean owned,
      boolean locksRows) {
    this.session = session;
    this.transaction = transaction;
    this.owned = owned;
    this.locksRows = locksRows;
  }

  /** The transaction to write in. */
  public ShardTransaction transaction() {
    return transaction;
  }

  /**
   * Whether every read of the rows this write changes locked them ({@code FOR UPDATE}); if
   * not, the writer locks each row by its key and checks it is unchanged before changing it.
   */
  public boolean readsLocked() {
    return !readWithoutLock.get();
  }

  AtomicBoolean readWithoutLock() {
    return readWithoutLock;
  }

  /** Whether the statement owns its transaction (autocommit). */
  boolean owned() {
    return owned;
  }

  /** Whether the statement's read locks the rows it finds. */
  boolean locksRows() {
    return locksRows;
  }

  /**
   * Ends the write successfully: commits the statement's own transaction, or leaves the
   * session's open for more statements.
   *
   * @throws SQLException if the statement's own transaction could not commit
   */
  public void complete() throws SQLException {
    complete(-1);
  }

  /**
   * {@link #complete()}, with the rows the statement changed, which the audit trail shows
   * ({@link ShardSession#lastWrite}).
   */
  public void complete(long rows) throws SQLException {
    if (ended) {
      return;
    }
    ended = true;
    session.writeEnded(this, true, rows);
    if (owned) {
      transaction.commit();
    }
  }

  /**
   * The failure as the client should see it: with SQLState 40P01 when the transaction was
   * chosen to end a deadlock across shards (its statement was canceled for it).
   */
  public SQLException explain(SQLException failure) {
    return ShardSession.deadlockOf(transaction, failure);
  }

  /**
   * Undoes a write that did not complete: rolls back the statement's own transaction, or
   * aborts the session's (see {@link ShardSession}).
   */
  @Override public void close() {
    if (ended) {
      return;
    }
    ended = true;
    session.writeEnded(this, false);
    if (owned) {
      transaction.rollback();
    }
  }
}
