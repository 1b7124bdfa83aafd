package io.shardset.reshard;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Creates and drops the move tables of a shard's physical tables. */
final class TwinTables {
  private TwinTables() {
  }

  /**
   * Creates each move table that is missing, empty and with its table's columns.
   *
   * @param fresh whether no move is recorded, so that a move table that exists must be empty:
   *     its rows would belong to no move, and copying them would double them
   * @return the move tables created
   */
  static int create(Connection connection, List<TablePart> parts, boolean fresh)
      throws SQLException {
    int created = 0;
    try (Statement statement = connection.createStatement()) {
      for (TablePart part : parts) {
        if (!part.twinExists(connection)) {
          statement.execute("CREATE TABLE " + part.twin() + " AS SELECT * FROM " + part.table()
              + " WHERE 1 = 0");
          created++;
        } else if (fresh) {
          checkEmpty(statement, part);
        }
      }
    }
    return created;
  }

  /**
   * Drops each move table that exists.
   *
   * @param leftovers whether no move is recorded, so that a move table must be empty to go
   * @return the move tables dropped
   */
  static int drop(Connection connection, List<TablePart> parts, boolean leftovers)
      throws SQLException {
    int dropped = 0;
    try (Statement statement = connection.createStatement()) {
      for (TablePart part : parts) {
        if (part.twinExists(connection)) {
          if (leftovers) {
            checkEmpty(statement, part);
          }
          statement.execute("DROP TABLE " + part.twin());
          dropped++;
        }
      }
    }
    return dropped;
  }

  /** Fails if a move table that no recorded move explains holds rows. */
  private static void checkEmpty(Statement statement, TablePart part) throws SQLException {
    try (ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM " + part.twin())) {
      count.next();
      long rows = count.getLong(1);
      if (rows > 0) {
        throw new IllegalStateException("move table " + part.twinName() + " on shard '"
            + part.shard() + "' holds " + rows + " rows, but the model records no move;"
            + " readers do not see them: put them back into "
            + String.join(".", part.site().qualifiedName())
            + " or delete them, then drop the move table");
      }
    }
  }
}
