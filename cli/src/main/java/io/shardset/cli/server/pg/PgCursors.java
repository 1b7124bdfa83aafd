package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's open SQL cursors ({@code DECLARE ... CURSOR}), by name: each the statement and
 * result its query runs in, read forward as {@code FETCH} and {@code MOVE} ask. They close at
 * the end of their transaction, as PostgreSQL's cursors without {@code WITH HOLD} do.
 */
final class PgCursors {
  /** An open cursor: its statement, rows and columns. */
  record Cursor(Statement statement, ResultSet rows, List<PgColumn> columns) {
    void close() throws SQLException {
      statement.close();
    }

    /** Reads past up to {@code count} rows (0 for all); returns how many. */
    long skip(long count) throws SQLException {
      long skipped = 0;
      while ((count == 0 || skipped < count) && rows.next()) {
        skipped++;
      }
      return skipped;
    }
  }

  private final Map<String, Cursor> open = new HashMap<>();

  /**
   * Opens cursor {@code name} on a statement that ran its query; the cursor owns the
   * statement from here on.
   *
   * @throws PgProtocolException (42P03) when a cursor of the name is open; the statement is
   *     closed then
   */
  void declare(String name, Statement statement, ResultSet rows) throws SQLException {
    if (open.containsKey(name)) {
      statement.close();
      throw new PgProtocolException("42P03", "cursor \"" + name + "\" already exists");
    }
    open.put(name, new Cursor(statement, rows, PgColumn.of(rows.getMetaData())));
  }

  /**
   * The open cursor {@code name}.
   *
   * @throws PgProtocolException (34000) when no cursor of the name is open
   */
  Cursor get(String name) {
    final Cursor cursor = open.get(name);
    if (cursor == null) {
      throw new PgProtocolException("34000", "cursor \"" + name + "\" does not exist");
    }
    return cursor;
  }

  /** Closes cursor {@code name}, or every cursor when it is null. */
  void close(@Nullable String name) throws SQLException {
    if (name != null) {
      get(name);
      open.remove(name).close();
      return;
    }
    SQLException failure = null;
    for (String each : new ArrayList<>(open.keySet())) {
      try {
        open.remove(each).close();
      } catch (SQLException e) {
        failure = e;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
