package io.shardset.write;

import io.shardset.topology.RowSite;
import io.shardset.topology.ShardSite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Locks the rows a row-by-row write read without locking them, each by its primary key at
 * every physical table it lives in, and checks that each still holds the values read: a row
 * that another transaction changed or removed since fails the statement with SQLState 40001
 * (retry), so that the write never overwrites a change it did not see, nor moves a row that
 * is gone. The reads lock rows themselves ({@code FOR UPDATE}) where the shard's SQL allows
 * it; this is the way for the others (a union of subpartitions, a derived table).
 */
public final class RowLocker {
  private RowLocker() {
  }

  /**
   * Locks the rows (all their values, JDBC values in the table's column order) in the write's
   * transaction.
   *
   * @throws SQLException (40001) naming the table and shard of a row that changed
   */
  public static void lockUnchanged(TableWrite write, List<Object[]> rows) throws SQLException {
    final List<Integer> key = write.table().layout().primaryKeyColumns();
    final int columns = write.table().layout().columns().size();
    final Map<RowSite, PreparedStatement> statements = new HashMap<>();
    try {
      for (Object[] row : rows) {
        for (RowSite site : write.place(row)) {
          final ShardSite physical = write.site(site);
          PreparedStatement statement = statements.get(site);
          if (statement == null) {
            final Connection connection = write.connection(site.shard());
            try {
              statement = connection.prepareStatement(lockSql(physical, key, columns));
            } catch (SQLException e) {
              throw WriteFailures.onShard(physical, write.table(), e);
            }
            statements.put(site, statement);
          }
          check(write, physical, statement, key, row);
        }
      }
    } finally {
      for (PreparedStatement statement : statements.values()) {
        try {
          statement.close();
        } catch (SQLException e) {
          // The transaction's end closes what is left.
        }
      }
    }
  }

  private static void check(TableWrite write, ShardSite site, PreparedStatement statement,
      List<Integer> key, Object[] row) throws SQLException {
    try {
      for (int i = 0; i < key.size(); i++) {
        statement.setObject(i + 1, row[key.get(i)]);
      }
      write.bound(statement, site);
      try (ResultSet current = statement.executeQuery()) {
        if (!current.next()) {
          throw WriteFailures.rowChanged(site, write.table(), "locking a row by its key");
        }
        for (int column = 0; column < row.length; column++) {
          if (!SameValue.same(row[column], current.getObject(column + 1))) {
            throw WriteFailures.rowChanged(site, write.table(), "locking a row by its key");
          }
        }
      }
    } catch (SQLException e) {
      if (WriteFailures.SERIALIZATION_FAILURE.equals(e.getSQLState())) {
        throw e;
      }
      throw WriteFailures.onShard(site, write.table(), e);
    }
  }

  private static String lockSql(ShardSite site, List<Integer> key, int columns) {
    final List<String> names = site.physicalColumns().subList(0, columns);
    return "SELECT " + names.stream().map(site.quoting()::quote)
        .collect(Collectors.joining(", ")) + " FROM " + site.quotedName() + " WHERE "
        + key.stream().map(c -> site.quoting().quote(site.physicalColumns().get(c)) + " = ?")
            .collect(Collectors.joining(" AND ")) + " FOR UPDATE";
  }
}
