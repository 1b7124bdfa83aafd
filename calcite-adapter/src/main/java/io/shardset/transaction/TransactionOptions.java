package io.shardset.transaction;

import java.sql.Connection;
import java.util.List;

/**
 * How a transaction begins.
 *
 * @param oneStatement whether it is one statement's own, in autocommit mode (see
 *     {@link ShardTransaction#connectionForOnlyStatement})
 * @param isolation the JDBC isolation level each shard's branch gets, or -1 to keep the
 *     shard's own (READ COMMITTED on PostgreSQL and H2, REPEATABLE READ on MariaDB)
 * @param savepoints the numbers of the savepoints its session set before it began, in order:
 *     they are set on every shard as it is enlisted
 */
public record TransactionOptions(boolean oneStatement, int isolation, List<Integer> savepoints) {
  /** A statement's own transaction, each shard at its own isolation. */
  public static final TransactionOptions STATEMENT = new TransactionOptions(true, -1, List.of());
  /** A transaction of several statements, each shard at its own isolation. */
  public static final TransactionOptions DEFAULT = new TransactionOptions(false, -1, List.of());

  public TransactionOptions {
    savepoints = List.copyOf(savepoints);
    if (isolation != -1 && isolation != Connection.TRANSACTION_READ_COMMITTED
        && isolation != Connection.TRANSACTION_REPEATABLE_READ
        && isolation != Connection.TRANSACTION_SERIALIZABLE) {
      throw new IllegalArgumentException("isolation level " + isolation);
    }
  }
}
