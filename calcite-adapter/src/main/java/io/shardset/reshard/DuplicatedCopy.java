package io.shardset.reshard;

import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSpec;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Makes a duplicated table's rows on a new shard equal to those on an existing shard: leaves
 * them when the row counts already match (a repeated run), else replaces them in one
 * transaction, so that a crash leaves either the old rows or all new ones.
 */
final class DuplicatedCopy {
  /** Rows per insert batch, and per fetch from the source. */
  static final int BATCH_SIZE = 1000;

  private final ShardSpec source;
  private final Connection sourceConnection;
  private final ShardSpec target;
  private final Connection targetConnection;

  DuplicatedCopy(ShardPair shards) {
    this.source = shards.source();
    this.sourceConnection = shards.sourceConnection();
    this.target = shards.target();
    this.targetConnection = shards.targetConnection();
  }

  /**
   * Copies the rows unless both tables hold as many.
   *
   * @param from the table on the source shard
   * @param to the table on the target shard, with the same logical columns
   * @param always whether to replace the rows even when the counts match
   * @return the rows copied; 0 when the counts matched
   */
  long copy(ShardColumns from, ShardColumns to, boolean always) throws SQLException {
    final String fromName = ShardJdbc.tableName(source, sourceConnection.getMetaData(),
        from.table().table());
    final String toName = ShardJdbc.tableName(target, targetConnection.getMetaData(),
        to.table().table());
    if (!always && count(sourceConnection, fromName) == count(targetConnection, toName)) {
      return 0;
    }
    final List<String> toColumns = targetColumns(from, to);
    final boolean sourceAutoCommit = sourceConnection.getAutoCommit();
    final boolean targetAutoCommit = targetConnection.getAutoCommit();
    // PostgreSQL streams a result (honours the fetch size) only inside a transaction.
    sourceConnection.setAutoCommit(false);
    targetConnection.setAutoCommit(false);
    try {
      final long rows = replace(from, fromName, toName, toColumns);
      targetConnection.commit();
      return rows;
    } catch (SQLException | RuntimeException e) {
      targetConnection.rollback();
      throw e;
    } finally {
      sourceConnection.rollback();
      sourceConnection.setAutoCommit(sourceAutoCommit);
      targetConnection.setAutoCommit(targetAutoCommit);
    }
  }

  private long replace(ShardColumns from, String fromName, String toName,
      List<String> toColumns) throws SQLException {
    final List<String> selected = new ArrayList<>();
    for (String column : from.table().columns()) {
      selected.add(ShardJdbc.quote(sourceConnection.getMetaData(), column));
    }
    final String insert = "INSERT INTO " + toName + " (" + String.join(", ", toColumns)
        + ") VALUES (" + String.join(", ", Collections.nCopies(toColumns.size(), "?")) + ")";
    long rows = 0;
    try (Statement delete = targetConnection.createStatement();
         Statement select = sourceConnection.createStatement();
         PreparedStatement inserts = targetConnection.prepareStatement(insert)) {
      delete.executeUpdate("DELETE FROM " + toName);
      select.setFetchSize(BATCH_SIZE);
      try (ResultSet rs = select.executeQuery(
          "SELECT " + String.join(", ", selected) + " FROM " + fromName)) {
        while (rs.next()) {
          for (int i = 1; i <= toColumns.size(); i++) {
            inserts.setObject(i, rs.getObject(i));
          }
          inserts.addBatch();
          if (++rows % BATCH_SIZE == 0) {
            inserts.executeBatch();
          }
        }
      }
      inserts.executeBatch();
    }
    return rows;
  }

  /** The target's physical column of each source column (by logical name), quoted. */
  private List<String> targetColumns(ShardColumns from, ShardColumns to) throws SQLException {
    final List<String> columns = new ArrayList<>();
    for (int i = 0; i < from.columns().size(); i++) {
      final String logical = from.columns().get(i).name();
      int match = -1;
      for (int j = 0; j < to.columns().size(); j++) {
        if (to.columns().get(j).name().equalsIgnoreCase(logical)) {
          match = j;
        }
      }
      if (match < 0) {
        throw new IllegalStateException("table '" + to.table().table() + "' on shard '"
            + target.name() + "' has no column '" + logical + "', which shard '"
            + source.name() + "' has");
      }
      columns.add(ShardJdbc.quote(targetConnection.getMetaData(),
          to.table().columns().get(match)));
    }
    return columns;
  }

  private static long count(Connection connection, String table) throws SQLException {
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
