package io.shardset.calcite.jdbc;

import io.shardset.calcite.ConnectionTransactions;
import io.shardset.calcite.runtime.WriteFailedException;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.AccessibleCalciteMeta;
import org.apache.calcite.jdbc.CalciteMetaColumnFactory;
import org.apache.calcite.jdbc.CalciteMetaTableFactory;

import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * Calcite's metadata and statement handling for a {@code jdbc:shardset:} connection, with the
 * transactions JDBC clients expect: autocommit on when the connection opens, and
 * {@code commit()} and {@code rollback()} ending the transaction the connection's writes
 * opened (see {@link ConnectionTransactions}). Turning autocommit on commits what is open, as
 * JDBC says.
 */
final class ShardSetMeta extends AccessibleCalciteMeta {
  private final ConnectionTransactions transactions;
  private final AvaticaConnection connection;

  ShardSetMeta(AvaticaConnection connection, CalciteMetaTableFactory tables,
      CalciteMetaColumnFactory columns, ConnectionTransactions transactions) {
    super(connection, tables, columns);
    this.connection = connection;
    this.transactions = Objects.requireNonNull(transactions, "transactions");
    connProps.setAutoCommit(true);
    connProps.setDirty(false);
    transactions.register(connection, this::isAutoCommit);
  }

  private boolean isAutoCommit() {
    return !Boolean.FALSE.equals(connProps.isAutoCommit());
  }

  @Override public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties properties) {
    final boolean wasAutoCommit = isAutoCommit();
    if (!wasAutoCommit && Boolean.TRUE.equals(properties.isAutoCommit())) {
      commit(ch);
    }
    return super.connectionSync(ch, properties);
  }

  @Override public void commit(ConnectionHandle ch) {
    try {
      transactions.commit(connection);
    } catch (SQLException e) {
      // Avatica's Meta cannot throw SQLException; its connection passes this on to the caller.
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  @Override public void rollback(ConnectionHandle ch) {
    transactions.rollback(connection);
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    try {
      return super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
    } catch (RuntimeException e) {
      throw withSqlState(e);
    }
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    try {
      return super.execute(h, parameterValues, maxRowsInFirstFrame);
    } catch (RuntimeException e) {
      throw withSqlState(e);
    }
  }

  @Override public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h,
      List<String> sqlCommands) throws NoSuchStatementException {
    try {
      return super.prepareAndExecuteBatch(h, sqlCommands);
    } catch (RuntimeException e) {
      throw withSqlState(e);
    }
  }

  /**
   * The exception to pass on for a failed execution: a write's failure keeps its SQLState
   * (40001 for a row whose key range is moving, say), which Avatica's statement passes to the
   * client only from this exception class; anything else as it is.
   */
  private static RuntimeException withSqlState(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof WriteFailedException write) {
        final SQLException failure = write.failure();
        return new AvaticaClientRuntimeException(failure.getMessage(),
            failure.getErrorCode(), failure.getSQLState(), AvaticaSeverity.ERROR, List.of(),
            null);
      }
    }
    return e;
  }
}
