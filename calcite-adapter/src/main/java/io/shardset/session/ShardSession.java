package io.shardset.session;

import io.shardset.transaction.ShardTransaction;
import io.shardset.transaction.TransactionCoordinator;
import io.shardset.transaction.TransactionOptions;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One client's session: its autocommit mode, read-only flag and isolation level, the
 * transaction it has open, its savepoints and the rows of a JDBC batch that wait. Each
 * client connection has one, whatever protocol it came in by; statements ask it which
 * transaction they write in ({@link #beginWrite}) and how they read ({@link #reads}).
 *
 * <h2>Transactions</h2>
 * In autocommit mode each statement is a transaction of its own, all or nothing. With
 * autocommit off, the first statement that reaches a shard begins a transaction, and every
 * later statement reads and writes through it, on one connection per shard, until
 * {@link #commit} or {@link #rollback}: its reads see its writes, and the row locks it takes
 * last until it ends.
 *
 * <p>A statement that fails inside a transaction aborts it, as PostgreSQL does: every later
 * statement fails with SQLState {@value #ABORTED_SQL_STATE} until the client rolls back (or
 * back to a savepoint set before the failure), and {@code commit()} rolls back and fails.
 * The transaction never commits part of itself after an error the client saw.
 *
 * <p>Thread-safe: a client may read one result on one thread while another statement runs
 * on another; the scans of one statement ask from several threads.
 */
public final class ShardSession implements AutoCloseable {
  /** SQLState of a write refused on a read-only connection (read-only SQL transaction). */
  public static final String READ_ONLY_SQL_STATE = "25006";
  /** SQLState of a change JDBC forbids inside a transaction (active SQL transaction). */
  public static final String ACTIVE_TRANSACTION_SQL_STATE = "25001";
  /** SQLState of a statement refused after an earlier one failed (in failed SQL
   * transaction). */
  public static final String ABORTED_SQL_STATE = "25P02";
  /** SQLState of a savepoint that does not exist (invalid savepoint specification). */
  public static final String NO_SAVEPOINT_SQL_STATE = "3B001";
  /** The most warnings kept for a client that does not take them. */
  static final int MAX_WARNINGS = 16;

  private final String user;
  private boolean closed;
  private boolean autoCommit = true;
  private boolean readOnly;
  private int isolation = IsolationLevels.DEFAULT;
  /** The transaction of the statements since the last commit or rollback (autocommit off). */
  private @Nullable ShardTransaction transaction;
  /** The own transaction of the autocommit statement that runs now, whose reads join it. */
  private @Nullable ShardTransaction statementTransaction;
  /** The table whose rows a running row-by-row write reads, locking them. */
  private @Nullable String lockedTable;
  /** What the statement running or last run wrote, for the audit trail; null for none. */
  private @Nullable LastWrite lastWrite;
  /** The running row-by-row write, whose reads say here when they could not lock. */
  private @Nullable SessionWrite rowWrite;
  /** What aborted the transaction; null while it is not aborted. */
  private @Nullable SQLException aborted;
  /** What stands for the reason a write failed until its statement reports it. */
  private @Nullable SQLException unexplained;
  private final List<SessionSavepoint> savepoints = new ArrayList<>();
  private int savepointNumbers;
  /** Whether a JDBC batch runs. */
  private boolean inBatch;
  /** Whether the running batch is one transaction of its own (it began in autocommit). */
  private boolean batchOwnsTransaction;
  private @Nullable PendingBatch batch;
  /** The transaction of the last write that failed, until its statement's failure is told
   * ({@link #statementFailed}), which may be explained by it (a deadlock). */
  private @Nullable ShardTransaction failedWrite;
  /** The generated keys the running statement asks for, or null. */
  private @Nullable KeyRequest keyRequest;
  /** The keys the running statement's INSERTs gave. */
  private final List<GeneratedKeys> generatedKeys = new ArrayList<>();
  /** Warnings for the client, until it takes them ({@link #takeWarnings}). */
  private final List<String> warnings = new ArrayList<>();

  /** A session of the user, in autocommit mode, writable, at READ COMMITTED. */
  public ShardSession(String user) {
    this.user = Objects.requireNonNull(user, "user");
  }

  /** The user the session runs as. */
  public String user() {
    return user;
  }

  // Settings

  public synchronized boolean isAutoCommit() {
    return autoCommit;
  }

  /**
   * Turns autocommit on or off; turning it on commits the open transaction, as JDBC says.
   *
   * @throws SQLException if that commit fails; autocommit is on all the same
   */
  public synchronized void setAutoCommit(boolean on) throws SQLException {
    if (on == autoCommit) {
      return;
    }
    autoCommit = on;
    if (on) {
      commit();
    }
  }

  public synchronized boolean isReadOnly() {
    return readOnly;
  }

  /**
   * Makes the session read-only, or writable again.
   *
   * @throws SQLException ({@value #ACTIVE_TRANSACTION_SQL_STATE}) while a transaction is open
   */
  public synchronized void setReadOnly(boolean on) throws SQLException {
    if (on == readOnly) {
      return;
    }
    if (hasOpenTransaction()) {
      throw new SQLException("cannot make the connection " + (on ? "read-only" : "writable")
          + " while its transaction is open; commit or roll back first",
          ACTIVE_TRANSACTION_SQL_STATE);
    }
    readOnly = on;
  }

  /** The JDBC isolation level of the session's transactions. */
  public synchronized int isolation() {
    return isolation;
  }

  /**
   * Sets the isolation level of the next transaction.
   *
   * @return the level granted ({@link IsolationLevels#granted})
   * @throws SQLException for a value that is no level (HY024), and while a transaction that
   *     reached a shard is open ({@value #ACTIVE_TRANSACTION_SQL_STATE}); the session's level
   *     does not change then
   */
  public synchronized int setIsolation(int level) throws SQLException {
    final int granted = IsolationLevels.granted(level);
    if (granted != isolation && transaction != null && !transaction.shards().isEmpty()) {
      throw new SQLException("cannot change the isolation level to "
          + IsolationLevels.name(granted) + " while a transaction is open; commit or roll"
          + " back first", ACTIVE_TRANSACTION_SQL_STATE);
    }
    isolation = granted;
    return granted;
  }

  // Statements

  /**
   * Checks that a statement may run now.
   *
   * @throws SQLException ({@value #ABORTED_SQL_STATE}) while the transaction is aborted
   */
  public synchronized void beforeStatement() throws SQLException {
    failedWrite = null;
    lastWrite = null;
    checkNotAborted();
  }

  /**
   * Takes note that a statement failed: inside a transaction, the transaction is aborted (its
   * shards roll back now unless a savepoint may still undo part of it).
   *
   * @return the exception the client should see: the failure itself, or, when the
   *     transaction was chosen to end a deadlock across shards, one with SQLState
   *     {@value ShardTransaction#DEADLOCK_SQL_STATE} that says so
   */
  public synchronized SQLException statementFailed(SQLException failure) {
    // The write that failed may have ended its transaction already (an autocommit write's
    // own, or the session's, aborted without a savepoint): it still knows why.
    final ShardTransaction failed = transaction != null ? transaction : failedWrite;
    failedWrite = null;
    final SQLException seen = deadlockOf(failed, failure);
    if (!autoCommit) {
      if (ABORTED_SQL_STATE.equals(failure.getSQLState()) && aborted != null) {
        return seen;
      }
      abort(seen);
    }
    return seen;
  }

  /** The failure as the client sees it: with 40P01 if the transaction ended a deadlock. */
  static SQLException deadlockOf(@Nullable ShardTransaction transaction,
      SQLException failure) {
    final String why = transaction == null ? null : transaction.deadlock();
    if (why == null || ShardTransaction.DEADLOCK_SQL_STATE.equals(failure.getSQLState())) {
      return failure;
    }
    return new SQLException(why, ShardTransaction.DEADLOCK_SQL_STATE, failure);
  }

  private void abort(SQLException cause) {
    if (aborted == null || aborted == unexplained) {
      aborted = cause;
    }
    if (savepoints.isEmpty() && transaction != null) {
      // Nothing can undo part of it now: let the shards go, and their locks.
      final ShardTransaction ending = transaction;
      transaction = null;
      ending.rollback();
    }
  }

  private void checkNotAborted() throws SQLException {
    if (aborted != null) {
      // Not chained to the failure: a server would report the state of the cause.
      throw new SQLException("current transaction is aborted, commands ignored until end of"
          + " transaction block (it failed on: " + aborted.getMessage() + "); roll back",
          ABORTED_SQL_STATE);
    }
  }

  /** What a write statement runs in. */
  public enum WriteKind {
    /** Rows to insert: the statement reads nothing of the table through its transaction. */
    INSERT,
    /** Rows found by a read of the table and changed one by one: the read joins the
     * transaction and locks the rows it finds. */
    ROWS,
    /** A statement the shards run themselves. */
    PUSHED
  }

  /**
   * Starts a statement's write to {@code table}: in the session's transaction when
   * autocommit is off (beginning it if none is open), else in a transaction of its own that
   * {@link SessionWrite#complete} commits. A write of rows found by a read (kind
   * {@link WriteKind#ROWS}) has that read join its transaction and lock the rows of
   * {@code table} it reads. A batch's waiting rows are sent first, unless the write is an
   * INSERT that may join them.
   *
   * @param table the table written to, by its qualified name
   * @throws SQLException if the session is read-only ({@value #READ_ONLY_SQL_STATE}), its
   *     transaction is aborted ({@value #ABORTED_SQL_STATE}), or it writes to another
   *     model's shards (25000)
   */
  public synchronized SessionWrite beginWrite(TransactionCoordinator coordinator, String table,
      WriteKind kind) throws SQLException {
    checkNotAborted();
    if (readOnly) {
      throw new SQLException("connection is read-only: cannot write to table " + table,
          READ_ONLY_SQL_STATE);
    }
    if (autoCommit && !inBatch) {
      final ShardTransaction own = coordinator.begin(new TransactionOptions(true,
          IsolationLevels.forBranches(isolation), List.of()));
      final SessionWrite write = new SessionWrite(this, own, true, kind == WriteKind.ROWS);
      if (kind == WriteKind.ROWS) {
        statementTransaction = own;
        lockedTable = table;
        rowWrite = write;
      }
      return write;
    }
    final ShardTransaction joined = openTransaction(coordinator);
    if (joined.coordinator() != coordinator) {
      throw new SQLException("a transaction writes to the shards of one model only; commit"
          + " before writing to another schema's tables", "25000");
    }
    if (batch != null && kind != WriteKind.INSERT) {
      // Whatever this statement does, it reads or changes the batch's rows where they go.
      batch.flush();
    }
    final SessionWrite write = new SessionWrite(this, joined, false, kind == WriteKind.ROWS);
    if (kind == WriteKind.ROWS) {
      lockedTable = table;
      rowWrite = write;
    }
    return write;
  }

  /**
   * What a write did, for the audit trail.
   *
   * @param shards the shards its transaction has written to (in a transaction, all it wrote to
   *     so far)
   * @param rows the rows it changed, -1 if unknown (it failed)
   */
  public record LastWrite(List<String> shards, long rows) {
  }

  /** What the current statement wrote, if it wrote; null before it writes. */
  public synchronized @Nullable LastWrite lastWrite() {
    return lastWrite;
  }

  /** A write ended: its reads no longer lock, and an autocommit write's own transaction is
   * no longer the one reads join. */
  synchronized void writeEnded(SessionWrite write, boolean completed) {
    writeEnded(write, completed, -1);
  }

  /** {@link #writeEnded(SessionWrite, boolean)}, with the rows it changed, -1 if unknown. */
  synchronized void writeEnded(SessionWrite write, boolean completed, long rows) {
    lastWrite = new LastWrite(write.transaction().shardsWritten(), rows);
    if (!completed) {
      failedWrite = write.transaction();
    }
    if (write.locksRows() && rowWrite == write) {
      lockedTable = null;
      rowWrite = null;
      if (statementTransaction == write.transaction()) {
        statementTransaction = null;
      }
    }
    if (!completed && !write.owned() && aborted == null) {
      // The client's statement fails with the reason; until it says so, this stands for it.
      unexplained = new SQLException("a write of this transaction failed");
      abort(unexplained);
    }
  }

  /**
   * How a scan of this session's statement reads the shards of {@code coordinator}'s model:
   * through the open transaction (beginning one when autocommit is off), or through the
   * running autocommit write's own, or else on pooled connections.
   *
   * @param locksAll whether the statement locks every row it reads ({@code SELECT ... FOR
   *     UPDATE}); a read outside a transaction locks nothing, as its locks would end with it
   */
  public synchronized ReadScope reads(TransactionCoordinator coordinator, boolean locksAll) {
    if (closed) {
      return ReadScope.POOLED;
    }
    ShardTransaction through = null;
    if (!autoCommit || inBatch) {
      if (aborted == null) {
        through = transaction != null ? transaction : openTransaction(coordinator);
      }
    } else if (statementTransaction != null) {
      through = statementTransaction;
    }
    if (through == null || through.coordinator() != coordinator) {
      // Another model's transaction: its reads go their own way.
      return ReadScope.POOLED;
    }
    return new ReadScope(through, lockedTable, locksAll,
        rowWrite == null ? null : rowWrite.readWithoutLock());
  }

  private ShardTransaction openTransaction(TransactionCoordinator coordinator) {
    if (transaction == null) {
      transaction = coordinator.begin(new TransactionOptions(false,
          IsolationLevels.forBranches(isolation),
          savepoints.stream().map(SessionSavepoint::number).toList()));
    }
    return transaction;
  }

  /** Whether a transaction is open: a statement reached a shard since the last commit. */
  public synchronized boolean hasOpenTransaction() {
    return transaction != null || aborted != null;
  }

  /** The open transaction, or null. */
  public synchronized @Nullable ShardTransaction transaction() {
    return transaction;
  }

  // Generated keys

  /**
   * Says which generated keys the statement about to run asks for (null: none); the keys its
   * INSERTs give are kept until {@link #takeGeneratedKeys}.
   */
  public synchronized void requestKeys(@Nullable KeyRequest request) {
    keyRequest = request;
    generatedKeys.clear();
  }

  /** The generated keys the running statement asks for, or null. */
  public synchronized @Nullable KeyRequest keyRequest() {
    return keyRequest;
  }

  /**
   * Keeps a warning of a running statement for its client (a scatter the model warns of), at
   * most {@value #MAX_WARNINGS} different ones until the client takes them.
   */
  public synchronized void warn(String warning) {
    if (warnings.size() < MAX_WARNINGS && !warnings.contains(warning)) {
      warnings.add(warning);
    }
  }

  /** The warnings kept since the last call, in the order they were given. */
  public synchronized List<String> takeWarnings() {
    if (warnings.isEmpty()) {
      return List.of();
    }
    final List<String> taken = List.copyOf(warnings);
    warnings.clear();
    return taken;
  }

  /** Keeps the keys an INSERT of the running statement gave. */
  public synchronized void generated(GeneratedKeys keys) {
    generatedKeys.add(keys);
  }

  /** The keys the statement's INSERTs gave, and stops asking for keys. */
  public synchronized GeneratedKeys takeGeneratedKeys() {
    keyRequest = null;
    if (generatedKeys.isEmpty()) {
      return GeneratedKeys.NONE;
    }
    final GeneratedKeys first = generatedKeys.get(0);
    final List<Object[]> rows = new ArrayList<>();
    for (GeneratedKeys keys : generatedKeys) {
      if (keys.columns().equals(first.columns())) {
        rows.addAll(keys.rows());
      }
    }
    generatedKeys.clear();
    return new GeneratedKeys(first.columns(), first.jdbcTypes(), rows);
  }

  // Ending

  /**
   * Commits the open transaction, if any.
   *
   * @throws SQLException if it could not commit; it is rolled back then. An aborted
   *     transaction is rolled back and fails with {@value #ABORTED_SQL_STATE}.
   */
  public synchronized void commit() throws SQLException {
    final SQLException failed = aborted;
    final ShardTransaction committing = transaction;
    endTransaction();
    if (failed != null) {
      if (committing != null) {
        committing.rollback();
      }
      throw new SQLException("the transaction was rolled back, not committed: a statement of"
          + " it failed (" + failed.getMessage() + ")", ABORTED_SQL_STATE);
    }
    if (committing != null) {
      committing.commit();
    }
  }

  /** Rolls back the open transaction, if any; never throws. */
  public synchronized void rollback() {
    final ShardTransaction rolling = transaction;
    endTransaction();
    if (rolling != null) {
      rolling.rollback();
    }
  }

  private void endTransaction() {
    transaction = null;
    aborted = null;
    unexplained = null;
    savepoints.clear();
  }

  // Savepoints

  /**
   * Sets a savepoint in the transaction (beginning none: it is set on each shard as the
   * transaction enlists it).
   *
   * @param name the client's name for it, or null for a numbered one
   * @throws SQLException in autocommit mode (25000), and while the transaction is aborted
   */
  public synchronized SessionSavepoint setSavepoint(@Nullable String name)
      throws SQLException {
    if (autoCommit) {
      throw new SQLException("cannot set a savepoint in autocommit mode", "25000");
    }
    checkNotAborted();
    final SessionSavepoint savepoint = new SessionSavepoint(++savepointNumbers, name);
    if (transaction != null) {
      try {
        transaction.savepoint(savepoint.number());
      } catch (SQLException e) {
        abort(e);
        throw e;
      }
    }
    savepoints.add(savepoint);
    return savepoint;
  }

  /** The savepoint of the transaction that has this name, the last one set if several. */
  public synchronized @Nullable SessionSavepoint savepoint(String name) {
    for (int i = savepoints.size() - 1; i >= 0; i--) {
      if (name.equals(savepoints.get(i).name())) {
        return savepoints.get(i);
      }
    }
    return null;
  }

  /**
   * Undoes what the transaction did since the savepoint, which stays set; the savepoints set
   * after it are released. A transaction aborted since the savepoint goes on.
   *
   * @throws SQLException ({@value #NO_SAVEPOINT_SQL_STATE}) if the savepoint is not set, and
   *     when a shard fails to roll back (the transaction stays aborted then)
   */
  public synchronized void rollbackTo(SessionSavepoint savepoint) throws SQLException {
    final int at = live(savepoint);
    if (transaction != null) {
      try {
        transaction.rollbackTo(savepoint.number());
      } catch (SQLException e) {
        abort(e);
        throw e;
      }
    }
    savepoints.subList(at + 1, savepoints.size()).clear();
    aborted = null;
  }

  /**
   * Releases the savepoint and those set after it; what the transaction did stays.
   *
   * @throws SQLException ({@value #NO_SAVEPOINT_SQL_STATE}) if it is not set, and while the
   *     transaction is aborted
   */
  public synchronized void releaseSavepoint(SessionSavepoint savepoint) throws SQLException {
    final int at = live(savepoint);
    checkNotAborted();
    if (transaction != null) {
      try {
        transaction.releaseSavepoint(savepoint.number());
      } catch (SQLException e) {
        abort(e);
        throw e;
      }
    }
    savepoints.subList(at, savepoints.size()).clear();
  }

  private int live(SessionSavepoint savepoint) throws SQLException {
    if (autoCommit) {
      throw new SQLException("no savepoint in autocommit mode", NO_SAVEPOINT_SQL_STATE);
    }
    final int at = savepoints.indexOf(savepoint);
    if (at < 0) {
      throw new SQLException("savepoint " + savepoint.describe() + " does not exist in this"
          + " transaction", NO_SAVEPOINT_SQL_STATE);
    }
    return at;
  }

  // Batches

  /**
   * Starts a JDBC batch: in autocommit mode the batch is one transaction of its own, which
   * {@link #endBatch} commits; otherwise it joins the open transaction.
   */
  public synchronized void beginBatch() throws SQLException {
    checkNotAborted();
    inBatch = true;
    batchOwnsTransaction = autoCommit;
  }

  /**
   * The rows waiting in the running batch, made by {@code create} on first use; null when no
   * batch runs and the statement sends its rows itself.
   */
  public synchronized <T extends PendingBatch> @Nullable T batch(Class<T> type,
      Supplier<T> create) {
    if (!inBatch) {
      return null;
    }
    if (batch == null) {
      batch = create.get();
    }
    return type.cast(batch);
  }

  /**
   * Ends the running batch: sends the rows that wait and, when the batch is its own
   * transaction, commits it.
   *
   * @throws SQLException if a shard refused rows or the commit failed: the batch's own
   *     transaction is rolled back, a joined one aborted
   */
  public synchronized void endBatch() throws SQLException {
    try {
      if (batch != null) {
        batch.flush();
        generatedKeys.addAll(batch.keys());
      }
    } catch (SQLException e) {
      if (!batchOwnsTransaction) {
        abort(e);
      }
      throw e;
    } finally {
      discardBatchRows();
    }
    final boolean owns = batchOwnsTransaction;
    inBatch = false;
    batchOwnsTransaction = false;
    if (owns) {
      commit();
    }
  }

  /**
   * Drops the running batch after it failed, and with it the rows that wait: the batch's own
   * transaction rolls back, a joined one is aborted.
   */
  public synchronized void discardBatch(@Nullable SQLException failure) {
    discardBatchRows();
    final boolean owns = batchOwnsTransaction;
    final boolean running = inBatch;
    inBatch = false;
    batchOwnsTransaction = false;
    if (!running) {
      return;
    }
    if (owns) {
      rollback();
    } else if (failure != null) {
      abort(failure);
    }
  }

  private void discardBatchRows() {
    final PendingBatch dropping = batch;
    batch = null;
    if (dropping != null) {
      dropping.close();
    }
  }

  /** Whether a JDBC batch runs. */
  public synchronized boolean inBatch() {
    return inBatch;
  }

  /** Rolls back what the session left open; its later statements read outside any
   * transaction. More than once is fine. */
  @Override public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    discardBatchRows();
    inBatch = false;
    rollback();
  }
}
