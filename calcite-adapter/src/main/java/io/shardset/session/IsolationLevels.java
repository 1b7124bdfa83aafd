package io.shardset.session;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The isolation levels a session may ask for. Each shard's branch of a transaction runs at
 * the level asked for, so each shard gives its own guarantee; the reads of two shards are
 * not one snapshot.
 */
public final class IsolationLevels {
  /** The level a session starts with. */
  public static final int DEFAULT = Connection.TRANSACTION_READ_COMMITTED;
  /** SQLState of a value that is no isolation level (invalid attribute value). */
  static final String INVALID_SQL_STATE = "HY024";

  private IsolationLevels() {
  }

  /**
   * The level a session gets when it asks for {@code level}: READ COMMITTED, REPEATABLE READ
   * and SERIALIZABLE as asked; READ COMMITTED for READ UNCOMMITTED, which JDBC lets a driver
   * raise to a stricter level, and for NONE, the one level Avatica's
   * {@code DatabaseMetaData} (which a driver built on it cannot change) says connections
   * support, so that clients that ask for what the metadata advertises, as sqlline does, are
   * not refused.
   *
   * @throws SQLException (HY024) for a value that names no level
   */
  public static int granted(int level) throws SQLException {
    switch (level) {
    case Connection.TRANSACTION_NONE:
    case Connection.TRANSACTION_READ_UNCOMMITTED:
    case Connection.TRANSACTION_READ_COMMITTED:
      return Connection.TRANSACTION_READ_COMMITTED;
    case Connection.TRANSACTION_REPEATABLE_READ:
    case Connection.TRANSACTION_SERIALIZABLE:
      return level;
    default:
      throw new SQLException("transaction isolation " + name(level) + " is not a level a"
          + " connection can have; ShardSet provides READ_COMMITTED, REPEATABLE_READ and"
          + " SERIALIZABLE", INVALID_SQL_STATE);
    }
  }

  /** Whether a session can have the level as it asks (the metadata's answer). */
  public static boolean isSupported(int level) {
    return level == Connection.TRANSACTION_READ_COMMITTED
        || level == Connection.TRANSACTION_REPEATABLE_READ
        || level == Connection.TRANSACTION_SERIALIZABLE;
  }

  /**
   * The level each shard's branch is given for a session at {@code level}: none for READ
   * COMMITTED, which every shard's pooled connections have already (they are made so,
   * MariaDB's too, whose own default is REPEATABLE READ), without a statement to set it.
   */
  static int forBranches(int level) {
    return level == Connection.TRANSACTION_READ_COMMITTED ? -1 : level;
  }

  /** The name of a level, as {@link Connection}'s constants spell it. */
  public static String name(int level) {
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
