package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Runs a COPY on a session's connection. {@code FROM STDIN} reads the client's CopyData as it
 * comes and inserts each row through ShardSet's routed writes, in batches, in the session's
 * transaction: like PostgreSQL's, a COPY that fails (a bad value, a key no shard accepts, the
 * client's CopyFail) leaves no row of it behind. {@code TO STDOUT} writes a query's rows, or a
 * table's, as CopyData.
 */
final class PgCopy {
  /** Rows sent to the shards at a time. */
  private static final int BATCH = 500;

  private final PgCopyCommand command;
  private final PgCopyFormat format;
  private final Connection connection;
  private final PgOutput out;

  PgCopy(PgCopyCommand command, Connection connection, PgOutput out) {
    this.command = command;
    this.format = new PgCopyFormat(command);
    this.connection = connection;
    this.out = out;
  }

  /** Copies the client's rows in; returns how many. */
  long in(PgInbox inbox) throws SQLException, InterruptedException {
    final List<String> columns = command.columns().isEmpty() ? tableColumns()
        : command.columns();
    final String insert = "INSERT INTO " + command.table() + " (" + String.join(", ", columns)
        + ") VALUES (" + String.join(", ", Collections.nCopies(columns.size(), "?"))
        + ")";
    try (PreparedStatement statement = connection.prepareStatement(insert)) {
      final int[] types = new int[columns.size()];
      for (int i = 0; i < types.length; i++) {
        types[i] = statement.getParameterMetaData().getParameterType(i + 1);
      }
      out.copyResponse('G', columns.size());
      out.flush();
      final StringBuilder text = new StringBuilder();
      long rows = 0;
      long line = 0;
      boolean ended = false;
      int pending = 0;
      while (true) {
        final PgFrame frame = inbox.take();
        if (frame == null) {
          throw new PgOutput.ClientGoneException("the client went during COPY");
        }
        final char type = (char) frame.type();
        if (type == 'c') {
          break;
        } else if (type == 'f') {
          throw new PgProtocolException("57014", "COPY from stdin failed: "
              + frame.input().readString());
        } else if (type == 'H' || type == 'S') {
          continue;
        } else if (type != 'd') {
          throw new PgProtocolException("unexpected message type " + (int) type
              + " during COPY from stdin");
        }
        if (ended) {
          continue;
        }
        text.append(new String(frame.body(), StandardCharsets.UTF_8));
        int start = 0;
        int end;
        while ((end = format.recordEnd(text, start)) >= 0) {
          final String record = text.substring(start, end);
          start = end + 1;
          line++;
          if (!command.csv() && record.equals("\\.")) {
            ended = true;
            break;
          }
          if (command.header() && line == 1) {
            continue;
          }
          bind(statement, types, format.fields(record), line);
          statement.addBatch();
          rows++;
          if (++pending == BATCH) {
            statement.executeBatch();
            pending = 0;
          }
        }
        text.delete(0, start);
      }
      if (!ended && !text.isEmpty()) {
        // A last record without a line break.
        line++;
        if (!(command.header() && line == 1)) {
          bind(statement, types, format.fields(text.toString()), line);
          statement.addBatch();
          rows++;
          pending++;
        }
      }
      if (pending > 0) {
        statement.executeBatch();
      }
      return rows;
    }
  }

  private void bind(PreparedStatement statement, int[] types, List<@Nullable String> fields,
      long line) throws SQLException {
    if (fields.size() != types.length) {
      throw new PgProtocolException("22P04", String.format(Locale.ROOT,
          "COPY line %d: %s (%d fields for %d columns)", line,
          fields.size() < types.length ? "missing data for a column"
              : "extra data after the last expected column", fields.size(), types.length));
    }
    for (int i = 0; i < types.length; i++) {
      final String field = fields.get(i);
      try {
        PgParameters.set(statement, i + 1, field == null ? null
            : field.getBytes(StandardCharsets.UTF_8), false, 0, types[i]);
      } catch (PgProtocolException e) {
        throw new PgProtocolException(e.sqlState(), "COPY line " + line + ", column "
            + (i + 1) + ": " + e.getMessage());
      }
    }
  }

  /** The table's columns, quoted, in order. */
  private List<String> tableColumns() throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery("SELECT * FROM " + command.table()
             + " WHERE 1 = 0")) {
      final ResultSetMetaData metaData = rs.getMetaData();
      final List<String> columns = new ArrayList<>();
      for (int i = 1; i <= metaData.getColumnCount(); i++) {
        columns.add("\"" + metaData.getColumnName(i).replace("\"", "\"\"") + "\"");
      }
      return columns;
    }
  }

  /** Copies a query's rows, or a table's, out to the client; returns how many. */
  long out(Statement statement) throws SQLException {
    final String query = command.query() != null ? command.query()
        : "SELECT " + (command.columns().isEmpty() ? "*" : String.join(", ",
            command.columns())) + " FROM " + command.table();
    try (ResultSet rs = statement.executeQuery(query)) {
      final ResultSetMetaData metaData = rs.getMetaData();
      final int count = metaData.getColumnCount();
      out.copyResponse('H', count);
      long rows = 0;
      if (command.header()) {
        final List<String> names = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
          names.add(PgColumn.clientName(metaData.getColumnLabel(i)));
        }
        out.copyData(format.record(new ArrayList<>(names)).getBytes(StandardCharsets.UTF_8));
      }
      final List<@Nullable String> values = new ArrayList<>(count);
      while (rs.next()) {
        values.clear();
        for (int i = 1; i <= count; i++) {
          values.add(PgText.of(rs.getObject(i)));
        }
        out.copyData(format.record(values).getBytes(StandardCharsets.UTF_8));
        rows++;
      }
      out.copyDone();
      return rows;
    }
  }
}
