package io.shardset.calcite.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/** The isolation levels a connection may ask for. */
final class TransactionIsolation {
  /**
   * The isolation in effect: each query reads every shard it reaches as committed when it
   * reads it, as the shards' default READ COMMITTED does; the reads of a transaction do not
   * see its own uncommitted writes, and two shards' reads are not one snapshot.
   */
  static final int IN_EFFECT = Connection.TRANSACTION_READ_COMMITTED;
  /** SQLState of an isolation level ShardSet does not provide (feature not supported). */
  static final String NOT_SUPPORTED_SQL_STATE = "0A000";
  /** SQLState of a value that is no isolation level (invalid attribute value). */
  static final String INVALID_SQL_STATE = "HY024";

  private TransactionIsolation() {
  }

  /**
   * The level a connection gets when it asks for {@code level}: READ COMMITTED for itself
   * and for READ UNCOMMITTED, which JDBC lets a driver raise to a stricter level.
   *
   * @throws SQLException for REPEATABLE READ and SERIALIZABLE, which ShardSet does not
   *     provide (promising them would let a client rely on an isolation it does not get),
   *     and for NONE and other values, which name no level a connection can have
   */
  static int granted(int level) throws SQLException {
    switch (level) {
    case Connection.TRANSACTION_READ_UNCOMMITTED:
    case Connection.TRANSACTION_READ_COMMITTED:
      return IN_EFFECT;
    case Connection.TRANSACTION_REPEATABLE_READ:
    case Connection.TRANSACTION_SERIALIZABLE:
      throw new SQLException("transaction isolation " + name(level) + " is not supported:"
          + " ShardSet reads each shard as committed when a query reads it"
          + " (READ_COMMITTED)", NOT_SUPPORTED_SQL_STATE);
    default:
      throw new SQLException("transaction isolation " + name(level) + " is not a level a"
          + " connection can have; ShardSet provides READ_COMMITTED", INVALID_SQL_STATE);
    }
  }

  /** The name of a level, as {@link Connection}'s constants spell it. */
  static String name(int level) {
    return switch (level) {
    case Connection.TRANSACTION_NONE -> "NONE";
    case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ_UNCOMMITTED";
    case Connection.TRANSACTION_READ_COMMITTED -> "READ_COMMITTED";
    case Connection.TRANSACTION_REPEATABLE_READ -> "REPEATABLE_READ";
    case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
    default -> String.valueOf(level);
    };
  }
}
