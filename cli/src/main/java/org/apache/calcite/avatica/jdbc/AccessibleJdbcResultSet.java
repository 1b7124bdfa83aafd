package org.apache.calcite.avatica.jdbc;

import org.apache.calcite.avatica.Meta;

import com.google.common.base.Optional;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Reads frames of a result as an Avatica server sends them, with its own conversions of each
 * column's values, which live in package-private code: a server that reads a result ahead of
 * its client (to release the shard connections behind it) must produce the very rows
 * {@code fetch} would. Lives in Avatica's package only to reach that code.
 */
public final class AccessibleJdbcResultSet {
  private AccessibleJdbcResultSet() {
  }

  /**
   * The next at most {@code rows} rows of a result, from {@code offset}; the frame is done, and
   * the result set closed, when the result has no more. Without {@code info} the result set is
   * read itself, so that a reader on another thread never reads the statement's next result.
   */
  public static Meta.Frame frame(JdbcMeta meta, @Nullable StatementInfo info,
      ResultSet resultSet,
      long offset, int rows) throws SQLException {
    return JdbcResultSet.frame(info, resultSet, offset, rows, meta.calendar,
        Optional.absent());
  }
}
