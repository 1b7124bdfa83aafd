package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A bound statement, ready to run or part-way through its rows: the statement it runs (the
 * prepared statement's own, lent, or one of its own when another portal has that), the formats
 * its client wants the columns in, and its open result while a client reads it in pieces
 * (Execute with a row limit, as pgJDBC's {@code setFetchSize} does).
 */
final class PgPortal implements AutoCloseable {
  private final PgPrepared prepared;
  private final @Nullable PreparedStatement statement;
  private final boolean ownStatement;
  private final PgFormats resultFormats;
  private @Nullable ResultSet result;
  private @Nullable List<PgColumn> columns;
  private long rowsSent;
  private boolean done;
  /** Whether the result is on a row read past an Execute's limit, not sent yet. */
  private boolean onUnsentRow;

  PgPortal(PgPrepared prepared, @Nullable PreparedStatement statement, boolean ownStatement,
      PgFormats resultFormats) {
    this.prepared = prepared;
    this.statement = statement;
    this.ownStatement = ownStatement;
    this.resultFormats = resultFormats;
  }

  PgPrepared prepared() {
    return prepared;
  }

  @Nullable PreparedStatement statement() {
    return statement;
  }

  PgFormats resultFormats() {
    return resultFormats;
  }

  @Nullable ResultSet result() {
    return result;
  }

  void result(ResultSet opened) {
    result = opened;
  }

  /** The result's columns, once asked for. */
  List<PgColumn> columns() throws SQLException {
    if (columns == null) {
      final PreparedStatement running = statement;
      columns = result != null ? PgColumn.of(result.getMetaData())
          : running != null ? PgColumn.of(running.getMetaData()) : List.of();
    }
    return columns;
  }

  long rowsSent() {
    return rowsSent;
  }

  void sent(long rows) {
    rowsSent += rows;
  }

  boolean onUnsentRow() {
    return onUnsentRow;
  }

  void onUnsentRow(boolean unsent) {
    onUnsentRow = unsent;
  }

  boolean done() {
    return done;
  }

  /** Marks the portal run to its end; its result is closed. */
  void finish() throws SQLException {
    done = true;
    closeResult();
  }

  private void closeResult() throws SQLException {
    final ResultSet open = result;
    result = null;
    if (open != null) {
      open.close();
    }
  }

  @Override public void close() throws SQLException {
    try {
      closeResult();
    } finally {
      if (ownStatement && statement != null) {
        statement.close();
      } else {
        prepared.giveBack();
      }
    }
  }
}
