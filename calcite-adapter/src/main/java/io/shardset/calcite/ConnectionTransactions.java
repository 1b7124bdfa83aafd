package io.shardset.calcite;

import io.shardset.transaction.ShardTransaction;
import io.shardset.transaction.TransactionCoordinator;

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
    final Object connection = root.getQueryProvider();
    final Mode mode = connection == null ? null : managed.get(connection);
    if (mode != null && mode.readOnly.getAsBoolean()) {
      throw new SQLException("connection is read-only: cannot write to "
          + "table " + table, READ_ONLY_SQL_STATE);
    }
    if (mode == null || mode.autoCommit.getAsBoolean()) {
      return new StatementWrite(coordinator.begin(), null);
    }
    final ShardTransaction transaction =
        open.computeIfAbsent(connection, c -> coordinator.begin());
    if (transaction.coordinator() != coordinator) {
      throw new SQLException("a transaction writes to the shards of one model only; commit"
          + " before writing to another schema's tables", "25000");
    }
    return new StatementWrite(transaction, connection);
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
      rollback(connection);
    } finally {
      managed.remove(connection);
    }
  }

  /** Whether the connection has a transaction open (it wrote since its last commit). */
  public boolean hasOpen(Object connection) {
    return open.containsKey(connection);
  }

  /** How a registered connection says whether it is in autocommit mode and read-only. */
  private record Mode(BooleanSupplier autoCommit, BooleanSupplier readOnly) {
  }

  /** One statement's hold on the transaction it writes in. */
  public final class StatementWrite implements AutoCloseable {
    private final ShardTransaction transaction;
    /** The connection whose transaction this joins; null when the statement owns it. */
    private final @Nullable Object connection;
    private boolean completed;

    StatementWrite(ShardTransaction transaction, @Nullable Object connection) {
      this.transaction = transaction;
      this.connection = connection;
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
