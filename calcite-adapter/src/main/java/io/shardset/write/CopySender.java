package io.shardset.write;

import io.shardset.topology.ShardSite;

import org.postgresql.PGConnection;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Sends rows to a PostgreSQL table with {@code COPY ... FROM STDIN} in CSV form, pgJDBC's
 * {@code CopyManager}: the fastest way PostgreSQL takes rows, several times the rows per
 * second of multi-row INSERTs. A batch holding a value CSV cannot carry faithfully (see
 * {@link CopyCsv}) is sent by the fallback instead.
 */
public final class CopySender implements RowSender {
  private final String copy;
  private final int columns;
  private final RowSender fallback;

  private CopySender(String copy, int columns, RowSender fallback) {
    this.copy = copy;
    this.columns = columns;
    this.fallback = fallback;
  }

  /** Copies into the table at {@code site}; sends with {@code fallback} what CSV cannot. */
  public static CopySender of(ShardSite site, RowSender fallback) {
    return new CopySender("COPY " + site.quotedName() + " ("
        + site.physicalColumns().stream().map(site.quoting()::quote)
            .collect(Collectors.joining(", ")) + ") FROM STDIN (FORMAT csv)",
        site.physicalColumns().size(), fallback);
  }

  @Override public void send(Connection connection, List<Object[]> rows) throws SQLException {
    final StringBuilder text = new StringBuilder(rows.size() * 16 * columns);
    for (Object[] row : rows) {
      for (int i = 0; i < columns; i++) {
        if (i > 0) {
          text.append(',');
        }
        if (!CopyCsv.append(text, row[i])) {
          fallback.send(connection, rows);
          return;
        }
      }
      text.append('\n');
    }
    try {
      connection.unwrap(PGConnection.class).getCopyAPI()
          .copyIn(copy, new StringReader(text.toString()));
    } catch (IOException e) {
      throw new SQLException("COPY failed: " + e.getMessage(), "08006", e);
    }
  }

  @Override public void close() {
    fallback.close();
  }
}
