package io.shardset.calcite.jdbc;

import io.shardset.calcite.ConnectionTransactions;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.jdbc.AccessibleCalciteMeta;
import org.apache.calcite.jdbc.CalciteMetaColumnFactory;
import org.apache.calcite.jdbc.CalciteMetaTableFactory;

import java.sql.SQLException;
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
}
