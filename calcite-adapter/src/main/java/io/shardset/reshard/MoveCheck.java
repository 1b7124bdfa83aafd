package io.shardset.reshard;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * VERIFY: per table and per source and target, the targets' move tables hold as many rows as
 * the sources' move tables send them, and no source's table still holds a row it gives away.
 */
final class MoveCheck {
  private final MovingFamily family;

  MoveCheck(MovingFamily family) {
    this.family = family;
  }

  /**
   * Checks one table.
   *
   * @return the rows the table moves
   * @throws IllegalStateException saying which counts differ
   */
  long verify(CarriedTable table) throws SQLException {
    Map<String, Long> sent = new TreeMap<>();
    Map<String, Long> received = new TreeMap<>();
    for (String source : family.sources()) {
      for (TablePart part : table.parts(source)) {
        scan(table, part, part.twin(), (before, after) -> {
          checkOwner(table, part, before, source, "its move table");
          sent.merge(before + " -> " + after, 1L, Long::sum);
        });
        scan(table, part, part.table(), (before, after) -> {
          if (!after.equals(source)) {
            throw new IllegalStateException("VERIFY: table " + table.name() + ": shard '"
                + source + "' still holds rows that move to '" + after + "' in its table");
          }
        });
      }
    }
    for (String target : family.targets()) {
      for (TablePart part : table.parts(target)) {
        scan(table, part, part.twin(), (before, after) -> {
          checkOwner(table, part, after, target, "its move table");
          received.merge(before + " -> " + after, 1L, Long::sum);
        });
      }
    }
    if (!sent.equals(received)) {
      throw new IllegalStateException("VERIFY: table " + table.name() + ": the sources' move"
          + " tables send " + sent + " rows, the targets' move tables hold " + received);
    }
    return sent.values().stream().mapToLong(Long::longValue).sum();
  }

  private static void checkOwner(CarriedTable table, TablePart part, String owner,
      String expected, String where) {
    if (!owner.equals(expected)) {
      throw new IllegalStateException("VERIFY: table " + table.name() + ": shard '"
          + part.shard() + "' holds in " + where + " a row of shard '" + owner + "'");
    }
  }

  /** Sees the owners before and after the move of each row's key. */
  @FunctionalInterface
  private interface KeyVisitor {
    void visit(String before, String after);
  }

  private void scan(CarriedTable table, TablePart part, String from, KeyVisitor visitor)
      throws SQLException {
    List<String> keyColumns = table.keyColumns(part);
    int width = keyColumns.size();
    try (Connection connection = family.connect(part.shard());
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT " + String.join(", ", keyColumns)
            + " FROM " + from)) {
      while (rows.next()) {
        List<Object> key = RowMoves.key(rows, width);
        visitor.visit(table.before().ownerOf(key), table.after().ownerOf(key));
      }
    }
  }
}
