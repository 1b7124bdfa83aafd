package io.shardset.calcite;

import io.shardset.model.MoveTables;
import io.shardset.model.ReshardSpec;
import io.shardset.routing.KeyHasher;
import io.shardset.routing.KeyType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The data steps of a chunk move, done with plain JDBC as the resharding design describes
 * them, so that tests can stop between them and read: move tables created, rows detached
 * into the sources' move tables, copied to the targets' move tables, merged, dropped.
 *
 * <p>Moves rows of tables whose one-column integer shard key is {@code keyColumn}.
 *
 * @param shards a connection to each shard, by name
 * @param tables the physical tables the move carries, on every shard
 * @param keyColumn the shard key column of every carried table
 */
record MoveByHand(Map<String, Connection> shards, List<String> tables, String keyColumn) {
  /** The hash of an integer shard key, as routing computes it. */
  static long hash(Object key) {
    return KeyHasher.hash(KeyHasher.keyBytes(List.of(KeyType.NUMBER), List.of(key)));
  }

  /** Creates the move table of every carried table on every shard the move involves. */
  void createMoveTables(ReshardSpec move) throws SQLException {
    for (Map.Entry<String, Connection> shard : shards.entrySet()) {
      if (move.involves(shard.getKey())) {
        for (String table : tables) {
          execute(shard.getValue(), "CREATE TABLE " + MoveTables.name(table)
              + " AS SELECT * FROM " + table + " WHERE 1=0");
        }
      }
    }
  }

  /** Moves each source's rows of the moving ranges into its move tables, one transaction per
   * source. */
  void detach(ReshardSpec move) throws SQLException {
    for (Map.Entry<String, Connection> shard : shards.entrySet()) {
      if (move.moves().stream().noneMatch(m -> m.source().equals(shard.getKey()))) {
        continue;
      }
      final Connection c = shard.getValue();
      c.setAutoCommit(false);
      for (String table : tables) {
        final List<Object> moving = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT DISTINCT " + keyColumn + " FROM " + table)) {
          while (rs.next()) {
            if (move.moveOf(hash(rs.getObject(1))) != null) {
              moving.add(rs.getObject(1));
            }
          }
        }
        if (!moving.isEmpty()) {
          final StringJoiner in = new StringJoiner(", ", keyColumn + " IN (", ")");
          moving.forEach(key -> in.add(key.toString()));
          execute(c, "INSERT INTO " + MoveTables.name(table) + " SELECT * FROM " + table
              + " WHERE " + in);
          execute(c, "DELETE FROM " + table + " WHERE " + in);
        }
      }
      c.commit();
      c.setAutoCommit(true);
    }
  }

  /** Copies the sources' move tables' rows into their targets' move tables. */
  void copy(ReshardSpec move) throws SQLException {
    for (ReshardSpec.MoveSpec range : move.moves()) {
      final Connection source = shards.get(range.source());
      final Connection target = shards.get(range.target());
      for (String table : tables) {
        final String twin = MoveTables.name(table);
        try (Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + twin)) {
          final int columns = rs.getMetaData().getColumnCount();
          final StringJoiner marks = new StringJoiner(", ", "(", ")");
          for (int i = 0; i < columns; i++) {
            marks.add("?");
          }
          try (PreparedStatement insert =
                   target.prepareStatement("INSERT INTO " + twin + " VALUES " + marks)) {
            while (rs.next()) {
              if (range.contains(hash(rs.getObject(keyColumn)))) {
                for (int i = 1; i <= columns; i++) {
                  insert.setObject(i, rs.getObject(i));
                }
                insert.addBatch();
              }
            }
            insert.executeBatch();
          }
        }
      }
    }
  }

  /** Moves each target's move tables' rows into its tables, then empties the sources'. */
  void merge(ReshardSpec move) throws SQLException {
    for (Map.Entry<String, Connection> shard : shards.entrySet()) {
      final boolean target = move.moves().stream()
          .anyMatch(m -> m.target().equals(shard.getKey()));
      if (!move.involves(shard.getKey())) {
        continue;
      }
      final Connection c = shard.getValue();
      c.setAutoCommit(false);
      for (String table : tables) {
        if (target) {
          execute(c, "INSERT INTO " + table + " SELECT * FROM " + MoveTables.name(table));
        }
        execute(c, "DELETE FROM " + MoveTables.name(table));
      }
      c.commit();
      c.setAutoCommit(true);
    }
  }

  /** Drops the move tables. */
  void dropMoveTables(ReshardSpec move) throws SQLException {
    for (Map.Entry<String, Connection> shard : shards.entrySet()) {
      if (move.involves(shard.getKey())) {
        for (String table : tables) {
          execute(shard.getValue(), "DROP TABLE IF EXISTS " + MoveTables.name(table));
        }
      }
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
