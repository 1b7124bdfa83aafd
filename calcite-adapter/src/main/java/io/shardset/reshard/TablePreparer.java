package io.shardset.reshard;

import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.ShardingMethod;
import io.shardset.model.TableSpec;
import io.shardset.topology.TableLayoutReader;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes shards ready for a move: creates on a joining shard the tables it will hold, as an
 * existing shard has them, and gives it the rows of every duplicated table; creates and drops
 * the move tables. Running any of it again changes nothing.
 */
public final class TablePreparer {
  /**
   * What preparing a shard did.
   *
   * @param created the physical tables created, in model order
   * @param copiedRows the rows copied per duplicated table (logical name); a table whose row
   *     count already matched is absent
   */
  public record Outcome(List<String> created, Map<String, Long> copiedRows) {
    public Outcome {
      created = List.copyOf(created);
      copiedRows = Map.copyOf(copiedRows);
    }
  }

  private TablePreparer() {
  }

  /**
   * Prepares a new shard.
   *
   * @param before the model without the shard, whose shards hold the tables
   * @param after the model with the shard; every table whose shards include it is prepared
   * @param newShard the new shard's name in {@code after}
   * @throws IllegalStateException if a table must be created between different database
   *     products, a duplicated table's columns differ, or a shard cannot be read or written
   */
  public static Outcome prepare(ShardSetModel before, ShardSetModel after, String newShard) {
    final ShardSpec target = after.shard(newShard);
    final List<String> created = new ArrayList<>();
    final Map<String, Long> copied = new LinkedHashMap<>();
    try (Connection targetConnection = ShardJdbc.open(target)) {
      for (TableSpec table : after.tables()) {
        if (!table.shards().contains(newShard)) {
          continue;
        }
        final TableSpec existing = tableBefore(before, table.name());
        final ShardSpec source = before.shard(existing.shards().stream()
            .filter(shard -> !shard.equals(newShard)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("table '" + table.name()
                + "' has no shard but '" + newShard + "' to copy it from")));
        try (Connection sourceConnection = ShardJdbc.open(source)) {
          final ShardPair shards =
              new ShardPair(source, sourceConnection, target, targetConnection);
          final TableCreator creator = new TableCreator(shards);
          for (ShardColumns physical : physicalTables(before, existing, source,
              sourceConnection)) {
            if (creator.createIfMissing(table, physical)) {
              created.add(physical.table().table());
            }
          }
          if (table.method() == ShardingMethod.DUPLICATED) {
            final long rows = new DuplicatedCopy(shards).copy(
                    TableLayoutReader.readShard(before, existing, source, sourceConnection),
                    TableLayoutReader.readShard(after, table, target, targetConnection),
                    false);
            if (rows > 0) {
              copied.put(table.name(), rows);
            }
          }
        } catch (SQLException e) {
          throw new IllegalStateException("cannot prepare table '" + table.name()
              + "' on new shard '" + newShard + "' from shard '" + source.name() + "': "
              + e.getMessage(), e);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot prepare new shard '" + newShard + "': "
          + e.getMessage(), e);
    }
    return new Outcome(created, copied);
  }

  /**
   * Copies every duplicated table to a shard that joined again, whole, each in one transaction:
   * rows written to the other shards after {@link #prepare} copied the table, by writers that
   * did not know the new shard yet, reach it too.
   *
   * @param model the model that lists the new shard
   * @return the rows copied, by table
   * @throws IllegalStateException if a shard cannot be read or written
   */
  public static Map<String, Long> refreshDuplicated(ShardSetModel model, String newShard) {
    final ShardSpec target = model.shard(newShard);
    final Map<String, Long> copied = new LinkedHashMap<>();
    try (Connection targetConnection = ShardJdbc.open(target)) {
      for (TableSpec table : model.tables()) {
        if (table.method() != ShardingMethod.DUPLICATED || !table.shards().contains(newShard)) {
          continue;
        }
        final ShardSpec source = model.shard(table.shards().stream()
            .filter(shard -> !shard.equals(newShard)).findFirst().orElseThrow());
        try (Connection sourceConnection = ShardJdbc.open(source)) {
          copied.put(table.name(), new DuplicatedCopy(
              new ShardPair(source, sourceConnection, target, targetConnection)).copy(
                  TableLayoutReader.readShard(model, table, source, sourceConnection),
                  TableLayoutReader.readShard(model, table, target, targetConnection), true));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot copy the duplicated tables to new shard '"
          + newShard + "' again: " + e.getMessage(), e);
    }
    return copied;
  }

  /** The physical tables that hold a table on a shard: its subpartition tables, or itself. */
  private static List<ShardColumns> physicalTables(ShardSetModel model, TableSpec table,
      ShardSpec shard, Connection connection) throws SQLException {
    return table.isSubpartitioned()
        ? TableLayoutReader.readSubpartitions(model, table, shard, connection)
        : List.of(TableLayoutReader.readShard(model, table, shard, connection));
  }

  private static TableSpec tableBefore(ShardSetModel before, String name) {
    return before.tables().stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("table '" + name
            + "' is not in the model before the shard joins"));
  }
}
