package io.shardset.reshard;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.function.ObjLongConsumer;

/** The row work of a move's steps on one shard: detach, copy and merge. */
final class RowMoves {
  private final MovingFamily family;
  private final int batchSize;

  RowMoves(MovingFamily family, int batchSize) {
    this.family = family;
    this.batchSize = batchSize;
  }

  /**
   * DETACH on a source, in one transaction: the rows whose owner after the move is another
   * shard go from each table into its move table.
   *
   * @return the rows detached
   */
  long detach(String source) throws SQLException {
    try (Connection connection = family.connect(source)) {
      return Transactions.run(connection, () -> {
        long rows = 0;
        for (CarriedTable table : family.tables()) {
          for (TablePart part : table.parts(source)) {
            rows += detach(connection, table, part);
          }
        }
        return rows;
      });
    }
  }

  private long detach(Connection connection, CarriedTable table, TablePart part)
      throws SQLException {
    List<String> keyColumns = table.keyColumns(part);
    List<List<Object>> leaving = new ArrayList<>(keysOwnedElsewhere(connection, table, part,
        String.join(", ", keyColumns)));
    long rows = 0;
    for (int from = 0; from < leaving.size(); from += batchSize) {
      KeyMatch match = KeyMatch.of(keyColumns,
          leaving.subList(from, Math.min(leaving.size(), from + batchSize)));
      try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + part.twin()
              + " SELECT * FROM " + part.table() + " WHERE " + match.sql());
          PreparedStatement delete = connection.prepareStatement("DELETE FROM " + part.table()
              + " WHERE " + match.sql())) {
        match.bind(insert);
        match.bind(delete);
        int inserted = insert.executeUpdate();
        int deleted = delete.executeUpdate();
        if (inserted != deleted) {
          throw new SQLException("table " + table.name() + " on shard '" + part.shard()
              + "': moved " + inserted + " rows into " + part.twinName() + " but deleted "
              + deleted + "; rolled back");
        }
        rows += deleted;
      }
    }
    return rows;
  }

  /** The distinct routing keys of a physical table's rows that another shard owns after. */
  private Set<List<Object>> keysOwnedElsewhere(Connection connection, CarriedTable table,
      TablePart part, String keyColumns) throws SQLException {
    Set<List<Object>> keys = new LinkedHashSet<>();
    try (Statement statement = connection.createStatement()) {
      statement.setFetchSize(batchSize);
      try (ResultSet rows = statement.executeQuery("SELECT " + keyColumns + " FROM "
          + part.table())) {
        int width = table.table().keyColumns().size();
        while (rows.next()) {
          List<Object> key = key(rows, width);
          if (!table.after().ownerOf(key).equals(part.shard())) {
            keys.add(key);
          }
        }
      }
    }
    return keys;
  }

  /** The number of rows in the move tables of a shard. */
  long twinRows(String shard) throws SQLException {
    long rows = 0;
    try (Connection connection = family.connect(shard);
        Statement statement = connection.createStatement()) {
      for (TablePart part : family.parts(shard)) {
        try (ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM " + part.twin())) {
          count.next();
          rows += count.getLong(1);
        }
      }
    }
    return rows;
  }

  /**
   * COPY to a target: empties its move tables, then copies into them the rows of its sources'
   * move tables that it owns after the move, committing every batch.
   *
   * @param copied told the number of rows of each committed batch
   * @return the rows copied
   */
  long copy(String target, LongConsumer copied, ObjLongConsumer<String> fromSource)
      throws SQLException {
    long rows = 0;
    try (Connection to = family.connect(target)) {
      try (Statement statement = to.createStatement()) {
        for (TablePart part : family.parts(target)) {
          statement.executeUpdate("DELETE FROM " + part.twin());
        }
      }
      for (String source : family.sourcesOf(target)) {
        long sourceRows = 0;
        try (Connection from = family.connect(source)) {
          for (CarriedTable table : family.tables()) {
            List<TablePart> sourceParts = table.parts(source);
            List<TablePart> targetParts = table.parts(target);
            for (int i = 0; i < sourceParts.size(); i++) {
              sourceRows +=
                  copy(table, from, sourceParts.get(i), to, targetParts.get(i), copied);
            }
          }
        }
        fromSource.accept(source, sourceRows);
        rows += sourceRows;
      }
    }
    return rows;
  }

  private long copy(CarriedTable table, Connection from, TablePart source, Connection to,
      TablePart target, LongConsumer copied) throws SQLException {
    int width = source.site().physicalColumns().size();
    String marks = String.join(", ", Collections.nCopies(width, "?"));
    List<Integer> keyColumns = table.table().keyColumns();
    long rows = 0;
    // Some drivers (PostgreSQL's) stream a result only inside a transaction.
    from.setAutoCommit(false);
    try (Statement select = from.createStatement();
        PreparedStatement insert = to.prepareStatement("INSERT INTO " + target.twin() + " ("
            + target.columns() + ") VALUES (" + marks + ")")) {
      select.setFetchSize(batchSize);
      to.setAutoCommit(false);
      int batch = 0;
      try (ResultSet result = select.executeQuery("SELECT " + source.columns() + " FROM "
          + source.twin())) {
        while (result.next()) {
          Object[] row = new Object[width];
          for (int c = 0; c < width; c++) {
            row[c] = result.getObject(c + 1);
          }
          List<Object> key = new ArrayList<>(keyColumns.size());
          keyColumns.forEach(c -> key.add(row[c]));
          if (!table.after().ownerOf(key).equals(target.shard())) {
            continue;
          }
          for (int c = 0; c < width; c++) {
            insert.setObject(c + 1, row[c]);
          }
          insert.addBatch();
          if (++batch == batchSize) {
            rows += commit(insert, to, batch, copied);
            batch = 0;
          }
        }
      }
      rows += commit(insert, to, batch, copied);
      from.commit();
    } catch (Throwable e) {
      Transactions.rollback(to, e);
      Transactions.rollback(from, e);
      throw e;
    } finally {
      Transactions.restoreAutoCommit(to);
      Transactions.restoreAutoCommit(from);
    }
    return rows;
  }

  private static long commit(PreparedStatement insert, Connection to, int batch,
      LongConsumer copied) throws SQLException {
    if (batch == 0) {
      return 0;
    }
    insert.executeBatch();
    to.commit();
    copied.accept(batch);
    return batch;
  }

  /**
   * MERGE on a target, in one transaction: the rows of its move tables go into its tables.
   *
   * @return the rows merged
   */
  long merge(String target) throws SQLException {
    try (Connection connection = family.connect(target)) {
      return Transactions.run(connection, () -> {
        long rows = 0;
        try (Statement statement = connection.createStatement()) {
          for (TablePart part : family.parts(target)) {
            int inserted = statement.executeUpdate("INSERT INTO " + part.table()
                + " SELECT * FROM " + part.twin());
            statement.executeUpdate("DELETE FROM " + part.twin());
            rows += inserted;
          }
        }
        return rows;
      });
    }
  }

  /** A row's routing key: the result's first {@code width} columns. */
  static List<Object> key(ResultSet rows, int width) throws SQLException {
    Object[] key = new Object[width];
    for (int i = 0; i < width; i++) {
      key[i] = rows.getObject(i + 1);
    }
    return Arrays.asList(key);
  }
}
