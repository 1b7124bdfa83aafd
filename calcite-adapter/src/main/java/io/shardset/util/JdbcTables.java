package io.shardset.util;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/** Whether a database has a table that ShardSet creates there itself. */
public final class JdbcTables {
  private JdbcTables() {
  }

  /**
   * Whether the database has the table, named as created (upper case) or as PostgreSQL folds
   * an unquoted name (lower case).
   */
  public static boolean exists(DatabaseMetaData metadata, String table) throws SQLException {
    for (String name : List.of(table, table.toLowerCase(Locale.ROOT))) {
      try (ResultSet rs = metadata.getTables(null, null, name, new String[] {"TABLE"})) {
        if (rs.next()) {
          return true;
        }
      }
    }
    return false;
  }
}
