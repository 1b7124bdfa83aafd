package io.shardset.load;

import io.shardset.calcite.LiveRouting;
import io.shardset.calcite.ShardTable;
import io.shardset.model.ReshardSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.ShardRouter;
import io.shardset.topology.LiveModel;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * Where a loader puts a table's rows under one version of the model: the router, numbered as
 * the table numbers its shards, and the resharding whose moving ranges it must refuse.
 *
 * @param version the model file's version, or -1 for a model that cannot change
 * @param router the router; null for a duplicated table
 * @param reshard the resharding in progress, or null
 */
record LoadPlacement(long version, @Nullable ShardRouter router, @Nullable ReshardSpec reshard) {
  /** The placement of a table whose model cannot change. */
  static LoadPlacement asBuilt(ShardTable table) {
    return new LoadPlacement(-1, table.router(), table.reshard());
  }

  /**
   * The placement of {@code table} under a snapshot of its model file.
   *
   * @throws IllegalStateException if the snapshot puts the table on other shards than those
   *     the table writes to (a shard joined or left), or places its rows where the table
   *     cannot write them
   */
  static LoadPlacement of(ShardTable table, LiveModel.Snapshot snapshot) {
    final TableSpec now = snapshot.model().tables().stream()
        .filter(t -> t.name().equals(table.spec().name())).findFirst().orElse(null);
    final List<String> built = table.shardNames();
    if (now != null && !now.shards().equals(built)) {
      // Rows written to the old shards only would leave a joining shard's copy, or a
      // leaving shard's rows, different from what the model says.
      throw new IllegalStateException("table " + table.qualifiedName() + ": the model now"
          + " places it on shards " + now.shards() + ", not " + built + " as when this loader"
          + " started; start the load again");
    }
    final ShardRouter router = LiveRouting.of(table, snapshot).routerOr(table.router());
    return new LoadPlacement(snapshot.version(), router, snapshot.model().reshard());
  }
}
