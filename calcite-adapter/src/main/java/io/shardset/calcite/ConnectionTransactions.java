package io.shardset.calcite;

import io.shardset.topology.ShardedTable;
import io.shardset.transaction.ShardTransaction;
import io.shardset.transaction.TransactionCoordinator;
import io.shardset.write.RowInserter;

import org.apache.calcite.DataContext;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The transaction each JDBC connection has open, for the statements that write.
 *
 * <p>A {@code jdbc:shardset:} connection registers itself ({@link #register}) and says whether
 * it is in autocommit mode and whether it is read-only; with autocommit off, its writes join one
 * transaction that its {@code commit()} or {@code rollback()} ends; a read-only connection's
 * writes are refused before they touch a shard. Every other connection (Calcite's own
 * {@code jdbc:calcite:}, which refuses commit and rollback) writes in autocommit mode: each
 * statement commits its own transaction, all or nothing.
 *
 * <p>Connections are found by identity, as the DataContext's query provider, as in
 * {@link OpenScans}.
 */
public final class ConnectionTransactions {
  /** SQLState of a write refused on a read-only connection (read-only SQL transaction). */
  public static final String READ_ONLY_SQL_STATE = "25006";

  private final Map<Object, Mode> managed = new ConcurrentHashMap<>();
  private final Map<Object, ShardTransaction> open = new ConcurrentHashMap<>();
  private final Map<Object, BatchedInserts> batches = new ConcurrentHashMap<>();

  ConnectionTransactions() {
  }

  /**
   * Takes charge of a connection's transactions; the connection may write.
   *
   * @param autoCommit whether the connection is in autocommit mode now
   */
  public void register(Object connection, BooleanSupplier autoCommit) {
    register(connection, autoCommit, () -> false);
  }

  /**
   * Takes charge of a connection's transactions.
   *
   * @param autoCommit whether the connection is in autocommit mode now
   * @param readOnly whether the connection is read-only now: its writes are then refused
   */
  public void register(Object connection, BooleanSupplier autoCommit, BooleanSupplier readOnly) {
    managed.put(Objects.requireNonNull(connection, "connection"), new Mode(
        Objects.requireNonNull(autoCommit, "autoCommit"),
        Objects.requireNonNull(readOnly, "readOnly")));
  }

  /**
   * Starts a statement's write to {@code table}: in the transaction of its connection when that
   * connection has autocommit off, else in a transaction of its own that
   * {@link StatementWrite#complete} commits.
   *
   * @param table the table written to, as the refusal of a read-only connection names it
   * @throws SQLException if the connection is read-only (SQLState {@value #READ_ONLY_SQL_STATE}),
   *     or if the connection's transaction writes to another model's shards
   */
  public StatementWrite begin(DataContext root, TransactionCoordinator coordinator,
      String table) throws SQLException {
    final StatementWrite write = beginInsert(root, coordinator, table);
    if (write.batched != null) {
      // Whatever this statement does, it reads or changes the batch's rows where they go.
      write.batched.flush();
    }
    return write;
  }

  /**
   * Starts a statement's INSERT into {@code table}, as {@link #begin} does; in a JDBC batch
   * ({@link #beginBatch}), the statement's rows may wait for the batch's end
   * ({@link StatementWrite#batched}).
   */
  public StatementWrite beginInsert(DataContext root, TransactionCoordinator coordinator,
      String table) throws SQLException {
    final Object connection = root.getQueryProvider();
    final Mode mode = connection == null ? null : managed.get(connection);
    if (mode != null && mode.readOnly.getAsBoolean()) {
      throw new SQLException("connection is read-only: cannot write to "
          + "table " + table, READ_ONLY_SQL_STATE);
    }
    if (mode == null || mode.autoCommit.getAsBoolean()) {
      return new StatementWrite(coordinator.beginStatement(), null, null);
    }
    final ShardTransaction transaction =
        open.computeIfAbsent(connection, c -> coordinator.begin());
    if (transaction.coordinator() != coordinator) {
      throw new SQLException("a transaction writes to the shards of one model only; commit"
          + " before writing to another schema's tables", "25000");
    }
    return new StatementWrite(transaction, connection, batches.get(connection));
  }

  /**
   * Starts a JDBC batch on a connection whose writes join its transaction (autocommit off, or
   * a batch run as one transaction): its INSERT rows wait to be sent until {@link #endBatch}.
   */
  public void beginBatch(Object connection) {
    batches.put(connection, new BatchedInserts());
  }

  /**
   * Ends the connection's JDBC batch, sending the rows that wait.
   *
   * @throws SQLException if a shard refused rows; the connection's transaction is then rolled
   *     back, as for any failed statement
   */
  public void endBatch(Object connection) throws SQLException {
    try (BatchedInserts batched = batches.remove(connection)) {
      if (batched != null) {
        batched.flush();
      }
    } catch (SQLException e) {
      rollback(connection);
      throw e;
    }
  }

  /** Drops the connection's JDBC batch and the rows that wait, after the batch failed. */
  public void discardBatch(Object connection) {
    final BatchedInserts batched = batches.remove(connection);
    if (batched != null) {
      batched.close();
    }
  }

  /**
   * Commits the connection's open transaction, if any.
   *
   * @throws SQLException if it could not commit; it is then rolled back
   */
  public void commit(Object connection) throws SQLException {
    final ShardTransaction transaction = open.remove(connection);
    if (transaction != null) {
      transaction.commit();
    }
  }

  /** Rolls back the connection's open transaction, if any. */
  public void rollback(Object connection) {
    final ShardTransaction transaction = open.remove(connection);
    if (transaction != null) {
      transaction.rollback();
    }
  }

  /** Rolls back what the closing connection left open, and forgets the connection. */
  public void connectionClosed(Object connection) {
    try {
      discardBatch(connection);
      rollback(connection);
    } finally {
      managed.remove(connection);
    }
  }

  /** Whether the connection has a transaction open (it wrote since its last commit). */
  public boolean hasOpen(Object connection) {
    return open.containsKey(connection);
  }

  /** Opens the inserter a JDBC batch's rows into one table share. */
  @FunctionalInterface
  public interface InserterOpener {
    RowInserter open(ShardTransaction transaction) throws SQLException;
  }

  /** How a registered connection says whether it is in autocommit mode and read-only. */
  private record Mode(BooleanSupplier autoCommit, BooleanSupplier readOnly) {
  }

  /** One statement's hold on the transaction it writes in. */
  public final class StatementWrite implements AutoCloseable {
    private final ShardTransaction transaction;
    /** The connection whose transaction this joins; null when the statement owns it. */
    private final @Nullable Object connection;
    /** The rows of the connection's JDBC batch, when it runs one. */
    private final @Nullable BatchedInserts batched;
    private boolean completed;

    StatementWrite(ShardTransaction transaction, @Nullable Object connection,
        @Nullable BatchedInserts batched) {
      this.transaction = transaction;
      this.connection = connection;
      this.batched = batched;
    }

    /**
     * The inserter of the connection's JDBC batch for {@code table}, opening it with
     * {@code opener} the first time; null when the connection runs no batch, and the
     * statement sends its rows itself. Rows given to it are sent when the batch ends.
     */
    public @Nullable RowInserter batchInserter(ShardedTable table, InserterOpener opener)
        throws SQLException {
      if (batched == null) {
        return null;
      }
      RowInserter inserter = batched.inserter(table);
      if (inserter == null) {
        inserter = opener.open(transaction);
        batched.add(table, inserter);
      }
      return inserter;
    }

    /** The transaction to write in. */
    public ShardTransaction transaction() {
      return transaction;
    }

    /**
     * Ends the statement's write successfully: commits the statement's own transaction, or
     * leaves the connection's open for more statements.
     *
     * @throws SQLException if the statement's own transaction could not commit
     */
    public void complete() throws SQLException {
      completed = true;
      if (connection == null) {
        transaction.commit();
      }
    }

    /**
     * Undoes a write that did not complete: the statement's own transaction, or the whole
     * transaction of its connection (as PostgreSQL aborts a transaction whose statement
     * failed), which a later write starts afresh.
     */
    @Override public void close() {
      if (completed) {
        return;
      }
      if (connection == null) {
        transaction.rollback();
      } else {
        open.remove(connection, transaction);
        transaction.rollback();
      }
    }
  }
}
