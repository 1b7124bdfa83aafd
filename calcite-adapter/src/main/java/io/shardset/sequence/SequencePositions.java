package io.shardset.sequence;

import io.shardset.transaction.LogDatabase;
import io.shardset.util.JdbcTables;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a schema's sequences stand in a store: the next free value of each. A model that moves
 * to another store (a model file's put into a catalog, or a catalog's exported to a file)
 * carries them over, or the new store would hand out its values from {@code start} again.
 */
public final class SequencePositions {
  private SequencePositions() {
  }

  /**
   * The next free value of each sequence of the schema that the store has handed out blocks
   * of; none if the store (an H2 file not made yet, say) or its table does not exist.
   */
  public static Map<String, Long> read(LogDatabase store, String schema) throws SQLException {
    final Map<String, Long> positions = new LinkedHashMap<>();
    if (!store.exists()) {
      return positions;
    }
    try (Connection c = store.connect()) {
      if (!JdbcTables.exists(c.getMetaData(), SequenceStore.TABLE)) {
        return positions;
      }
      try (PreparedStatement p = c.prepareStatement("SELECT SEQUENCE_NAME, NEXT_VALUE FROM "
          + SequenceStore.TABLE + " WHERE SCHEMA_NAME = ? ORDER BY SEQUENCE_NAME")) {
        p.setString(1, schema);
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            positions.put(rs.getString(1), rs.getLong(2));
          }
        }
      }
    }
    return positions;
  }

  /**
   * Makes each sequence's next free value in the store at least the one given, in one
   * transaction: values the old store handed out are never handed out again.
   */
  public static void raise(LogDatabase store, String schema, Map<String, Long> positions)
      throws SQLException {
    try (Connection c = store.connect()) {
      SequenceStore.create(c);
      c.setAutoCommit(false);
      try {
        for (Map.Entry<String, Long> position : positions.entrySet()) {
          try (PreparedStatement update = c.prepareStatement("UPDATE " + SequenceStore.TABLE
              + " SET NEXT_VALUE = ? WHERE SCHEMA_NAME = ? AND SEQUENCE_NAME = ?"
              + " AND NEXT_VALUE < ?")) {
            update.setLong(1, position.getValue());
            update.setString(2, schema);
            update.setString(3, position.getKey());
            update.setLong(4, position.getValue());
            if (update.executeUpdate() > 0) {
              continue;
            }
          }
          try (PreparedStatement insert = c.prepareStatement("INSERT INTO "
              + SequenceStore.TABLE + " (NEXT_VALUE, SCHEMA_NAME, SEQUENCE_NAME)"
              + " SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM " + SequenceStore.TABLE
              + " WHERE SCHEMA_NAME = ? AND SEQUENCE_NAME = ?)")) {
            insert.setLong(1, position.getValue());
            insert.setString(2, schema);
            insert.setString(3, position.getKey());
            insert.setString(4, schema);
            insert.setString(5, position.getKey());
            insert.executeUpdate();
          }
        }
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    }
  }
}
