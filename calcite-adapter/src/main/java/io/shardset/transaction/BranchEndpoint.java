package io.shardset.transaction;

import io.shardset.execution.ShardEndpoint;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * A shard as a transaction's reads see it: each connection it hands out is a lease of the
 * transaction's own connection to the shard, so that a read sees what the transaction wrote
 * there and the row locks it takes last until the transaction ends. The scans use it as any
 * endpoint: they close the lease when done, which leaves the connection to the transaction.
 */
final class BranchEndpoint implements ShardEndpoint {
  private final ShardTransaction transaction;
  private final ShardEndpoint shard;

  BranchEndpoint(ShardTransaction transaction, ShardEndpoint shard) {
    this.transaction = Objects.requireNonNull(transaction, "transaction");
    this.shard = Objects.requireNonNull(shard, "shard");
  }

  @Override public String name() {
    return shard.name();
  }

  @Override public Connection connect() throws SQLException {
    return transaction.lease(shard);
  }

  @Override public Connection connect(BooleanSupplier stop) throws SQLException {
    return transaction.lease(shard);
  }

  @Override public long statementTimeoutMillis() {
    return shard.statementTimeoutMillis();
  }

  /** The branch is in a transaction already: results stream without another. */
  @Override public boolean streamsInTransactionOnly() {
    return false;
  }

  /**
   * The whole result at once on a MariaDB shard: its driver cannot stream one result while
   * another thread runs a statement on the same connection (it repeats or drops rows), and
   * the scans of one statement share the transaction's connection.
   */
  @Override public int fetchSize(int asked) {
    return transaction.streamsSharedReads(shard) ? asked : 0;
  }

  /** Gives up the transaction's connection: the transaction can only roll back now. */
  @Override public void abandon(Connection connection, Executor signals) {
    transaction.abandon(shard);
    try {
      connection.unwrap(Connection.class).abort(signals);
    } catch (SQLException | RuntimeException e) {
      // Aborting is a last resort; the connection's own timeouts remain.
    }
  }

  @Override public boolean answers(int timeoutSeconds) {
    return shard.answers(timeoutSeconds);
  }

  @Override public String redact(String message) {
    return shard.redact(message);
  }

  @Override public String toString() {
    return shard.name() + " in " + transaction;
  }
}
