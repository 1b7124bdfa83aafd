package io.shardset.reshard;

import io.shardset.model.ShardSetModel;
import io.shardset.model.TableSpec;
import io.shardset.routing.ShardRouter;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.TablePlacement;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Where a table's rows live under the placement a resharding leads to: routes a row's routing
 * key (the shard key, after the partition column of a composite table) with the chunk map
 * after the move.
 */
public final class RowOwners {
  private final ShardedTable table;
  private final TableSpec after;
  private final ShardRouter router;

  private RowOwners(ShardedTable table, TableSpec after, ShardRouter router) {
    this.table = table;
    this.after = after;
    this.router = router;
  }

  /**
   * The owners of a table's rows under {@code afterModel}.
   *
   * @param table the table as a schema read it (its columns and key types)
   * @param afterModel the model after the move, which must hold a table of the same name
   */
  public static RowOwners of(ShardedTable table, ShardSetModel afterModel) {
    TablePlacement.ModelRouting after = TablePlacement.of(table).under(afterModel)
        .orElseThrow(() -> new IllegalArgumentException("the model after the move has no table "
            + table.spec().name()));
    return new RowOwners(table, after.spec(), Objects.requireNonNull(after.router(), "router"));
  }

  /** The table column index of each routing key column, in key order. */
  public List<Integer> keyColumns() {
    return table.keyColumns();
  }

  /** The shard that holds a row with these routing key values after the move. */
  public String ownerOf(List<?> keyValues) {
    OptionalInt shard = router.shardOf(new ArrayList<>(keyValues));
    if (shard.isEmpty()) {
      throw new IllegalArgumentException("table " + table.qualifiedName()
          + ": no shard accepts key " + keyValues);
    }
    return after.shards().get(shard.getAsInt());
  }
}
