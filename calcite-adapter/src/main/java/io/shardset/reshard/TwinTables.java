package io.shardset.reshard;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Creates and drops the move tables of a shard's physical tables. */
final class TwinTables {
  private TwinTables() {
  }

  /** Creates each move table that is missing, empty and with its table's columns. */
  static int create(Connection connection, List<TablePart> parts) throws SQLException {
    int created = 0;
    try (Statement statement = connection.createStatement()) {
      for (TablePart part : parts) {
        if (!part.twinExists(connection)) {
          statement.execute("CREATE TABLE " + part.twin() + " AS SELECT * FROM " + part.table()
              + " WHERE 1 = 0");
          created++;
        }
      }
    }
    return created;
  }

  /** Drops each move table that exists. */
  static int drop(Connection connection, List<TablePart> parts) throws SQLException {
    int dropped = 0;
    try (Statement statement = connection.createStatement()) {
      for (TablePart part : parts) {
        if (part.twinExists(connection)) {
          statement.execute("DROP TABLE " + part.twin());
          dropped++;
        }
      }
    }
    return dropped;
  }
}
