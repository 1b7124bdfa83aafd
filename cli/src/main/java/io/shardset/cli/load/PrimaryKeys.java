package io.shardset.cli.load;

import io.shardset.calcite.ShardTable;
import io.shardset.execution.ShardException;
import io.shardset.model.PhysicalTable;
import io.shardset.topology.ShardSite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Reads a sharded table's primary key from the metadata of its shards. */
public final class PrimaryKeys {
  private PrimaryKeys() {
  }

  /**
   * The table's primary key as column indexes in key order; empty if the table has none.
   *
   * @throws IllegalStateException if the shards disagree about the key
   */
  public static List<Integer> of(ShardTable table) {
    List<Integer> first = null;
    for (int shard = 0; shard < table.shardCount(); shard++) {
      final List<Integer> key = read(table.site(shard), table.layout().shards().get(shard));
      if (first == null) {
        first = key;
      } else if (!first.equals(key)) {
        throw new IllegalStateException("table " + table.qualifiedName()
            + ": the primary key differs between shard '" + table.shardName(0) + "' "
            + names(table, first) + " and shard '" + table.shardName(shard) + "' "
            + names(table, key));
      }
    }
    return first == null ? List.of() : first;
  }

  /** The names of key columns, such as {@code (ORDER_ID)}. */
  public static String names(ShardTable table, List<Integer> key) {
    final List<String> names = new ArrayList<>();
    key.forEach(i -> names.add(table.layout().columns().get(i).name()));
    return "(" + String.join(", ", names) + ")";
  }

  private static List<Integer> read(ShardSite site, PhysicalTable physical) {
    final TreeMap<Integer, Integer> bySequence = new TreeMap<>();
    try (Connection connection = site.endpoint().connect();
         ResultSet rs = connection.getMetaData().getPrimaryKeys(physical.catalog(),
             physical.schema(), physical.table())) {
      while (rs.next()) {
        final String column = rs.getString("COLUMN_NAME");
        final int index = site.physicalColumns().indexOf(column);
        if (index < 0) {
          throw new IllegalStateException("shard '" + site.name() + "': primary key column '"
              + column + "' is not a column of " + physical.table());
        }
        bySequence.put(rs.getInt("KEY_SEQ"), index);
      }
    } catch (SQLException e) {
      throw new ShardException(site.name(),
          site.endpoint().redact(String.valueOf(e.getMessage())), e);
    }
    return List.copyOf(bySequence.values());
  }
}
