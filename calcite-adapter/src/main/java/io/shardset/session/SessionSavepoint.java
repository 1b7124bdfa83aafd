package io.shardset.session;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * A savepoint of a session, as JDBC hands it to the client: its number in the session, and
 * its name when the client gave one.
 */
public record SessionSavepoint(int number, @Nullable String name) implements Savepoint {
  @Override public int getSavepointId() throws SQLException {
    if (name != null) {
      throw new SQLException("savepoint '" + name + "' is named, not numbered", "HY024");
    }
    return number;
  }

  @Override public String getSavepointName() throws SQLException {
    if (name == null) {
      throw new SQLException("savepoint " + number + " is numbered, not named", "HY024");
    }
    return name;
  }

  /** How messages name it. */
  String describe() {
    return name != null ? "'" + name + "'" : String.valueOf(number);
  }
}
