package io.shardset.calcite;

import io.shardset.model.RouterFactory;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.RenumberedRouter;
import io.shardset.routing.ShardRouter;
import io.shardset.topology.LiveModel;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How a table built under one version of its model file routes under another: a hashed
 * table's router is built again from the newer chunk map, its shards numbered as the table
 * numbers them.
 *
 * @param router the router to use instead of the table's, or null when the table's is right
 * @param error why the table cannot be used under that version, or null
 */
public record LiveRouting(@Nullable ShardRouter router, @Nullable String error) {
  private static final LiveRouting AS_BUILT = new LiveRouting(null, null);

  /** How {@code table} routes under a snapshot of its schema's model file. */
  public static LiveRouting of(ShardTable table, LiveModel.Snapshot snapshot) {
    final LiveSource source = table.live();
    final TableSpec built = table.spec();
    if (source == null || snapshot.version() == source.builtVersion()
        || built.hashedShardspaces().isEmpty()) {
      // Only chunk maps change while the process runs; other placements stay as built.
      return AS_BUILT;
    }
    final ShardSetModel model = snapshot.model();
    final TableSpec spec = model.tables().stream()
        .filter(t -> t.name().equals(built.name())).findFirst().orElse(null);
    if (spec == null) {
      return new LiveRouting(null, "the model of schema '" + model.schema()
          + "' no longer has table '" + built.name() + "'; reconnect");
    }
    for (String shard : placedShards(model, spec)) {
      if (table.shardIndex(shard) < 0) {
        return new LiveRouting(null, "the model of schema '" + model.schema()
            + "' now places rows of table '" + built.name() + "' on shard '" + shard
            + "', which this connection does not know; reconnect");
      }
    }
    final ShardRouter fresh = RouterFactory.create(model, spec, table.layout(), null);
    final int[] numbers = spec.shards().stream().mapToInt(table::shardIndex).toArray();
    return new LiveRouting(new RenumberedRouter(fresh, numbers, table.shardCount()), null);
  }

  /** The router to use: this one's, else the table's.
   *
   * @throws IllegalStateException with the error, if there is one */
  public @Nullable ShardRouter routerOr(@Nullable ShardRouter built) {
    if (error != null) {
      throw new IllegalStateException(error);
    }
    return router == null ? built : router;
  }

  /** The shards on which the chunk map of a hashed table's shardspaces puts hash ranges. */
  private static Set<String> placedShards(ShardSetModel model, TableSpec spec) {
    final Set<String> shards = new LinkedHashSet<>();
    for (String space : spec.hashedShardspaces()) {
      final List<String> placed = new ArrayList<>();
      model.chunkMap(space).forEach(entry -> placed.add(entry.shard()));
      if (placed.isEmpty()) {
        // Default placement: every shard of the shardspace holds chunks.
        model.shardspace(space).stream().map(ShardSpec::name).forEach(placed::add);
      }
      shards.addAll(placed);
    }
    return shards;
  }
}
