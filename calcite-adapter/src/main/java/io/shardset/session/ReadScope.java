package io.shardset.session;

import io.shardset.execution.ShardEndpoint;
import io.shardset.transaction.ShardTransaction;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How one scan of a statement reads its shards: on pooled connections of their own, or
 * through the session's open transaction, and whether it locks the rows it reads.
 */
public final class ReadScope {
  /** Reads on pooled connections, outside any transaction, locking nothing. */
  public static final ReadScope POOLED = new ReadScope(null, null, false, null);

  /** SQLState of a locking read ShardSet cannot lock (feature not supported). */
  public static final String CANNOT_LOCK_SQL_STATE = "0A000";

  private final @Nullable ShardTransaction transaction;
  private final @Nullable String lockedTable;
  private final boolean locksAll;
  private final @Nullable AtomicBoolean readWithoutLock;

  ReadScope(@Nullable ShardTransaction transaction, @Nullable String lockedTable,
      boolean locksAll, @Nullable AtomicBoolean readWithoutLock) {
    this.transaction = transaction;
    this.lockedTable = lockedTable;
    this.locksAll = locksAll;
    this.readWithoutLock = readWithoutLock;
  }

  /** The endpoint to read {@code shard} through. */
  public ShardEndpoint endpoint(ShardEndpoint shard) {
    return transaction == null ? shard : transaction.reading(shard);
  }

  /** The transaction the reads join, or null. */
  public @Nullable ShardTransaction transaction() {
    return transaction;
  }

  /**
   * Whether a scan of these tables (qualified names) locks the rows it reads until the
   * transaction ends: the target of a row-by-row UPDATE, DELETE or MERGE, or every table of a
   * {@code SELECT ... FOR UPDATE}.
   */
  public boolean locks(Collection<String> tables) {
    return transaction != null
        && (locksAll || lockedTable != null && tables.contains(lockedTable));
  }

  /**
   * Says that a scan that {@link #locks} could not lock the rows it read ({@code why}): the
   * row-by-row write it reads for then locks each row by its key and checks it is unchanged
   * before it changes it.
   *
   * @throws IllegalStateException carrying an SQLException
   *     ({@value #CANNOT_LOCK_SQL_STATE}) for a {@code SELECT ... FOR UPDATE}, which has no
   *     other way to lock
   */
  public void couldNotLock(String table, String why) {
    if (locksAll) {
      final String message = "SELECT ... FOR UPDATE cannot lock the rows it reads of table "
          + table + ": " + why;
      throw new IllegalStateException(message,
          new SQLException(message, CANNOT_LOCK_SQL_STATE));
    }
    if (readWithoutLock != null) {
      readWithoutLock.set(true);
    }
  }
}
