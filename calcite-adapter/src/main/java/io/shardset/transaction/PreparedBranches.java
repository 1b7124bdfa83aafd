package io.shardset.transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The branches of ShardSet's transactions a shard holds prepared: committed or rolled back
 * once their coordinator (or another process's recovery) finishes them.
 */
public final class PreparedBranches {
  private PreparedBranches() {
  }

  /**
   * The ids of the ShardSet branches prepared on the shard of this connection (on MariaDB,
   * on its whole server).
   */
  public static List<String> on(Connection connection) throws SQLException {
    return CommitProtocol.of(connection).prepared(connection).stream()
        .filter(id -> id.startsWith(GlobalId.MARK)).toList();
  }
}
