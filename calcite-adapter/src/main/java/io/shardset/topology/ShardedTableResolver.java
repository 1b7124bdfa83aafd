package io.shardset.topology;

import io.shardset.model.PhysicalTable;
import io.shardset.model.RouterFactory;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.ShardingMethod;
import io.shardset.model.Subpartitioning;
import io.shardset.model.TableLayout;
import io.shardset.model.TableSpec;
import io.shardset.routing.ShardRouter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves a model's tables against their shards: reads each table's layout, checks it, and
 * builds its router and the site of each of its shards.
 */
public final class ShardedTableResolver {
  private ShardedTableResolver() {
  }

  /**
   * Resolves every table of the model from what {@code layouts} says of the shards, in model
   * order; the caller closes {@code layouts}.
   *
   * @param live the model file the tables follow, or null
   */
  public static Map<String, ShardedTable> resolve(ShardSetModel model,
      @Nullable LiveSource live, ShardLayouts layouts) {
    final Map<String, ShardedTable> tables = new LinkedHashMap<>();
    final Map<String, ShardSpec> shards = model.shardsByName();
    for (TableSpec spec : model.tables()) {
      tables.put(spec.name(), resolve(model, shards, spec, live, layouts));
    }
    return tables;
  }

  private static ShardedTable resolve(ShardSetModel model, Map<String, ShardSpec> shards,
      TableSpec spec, @Nullable LiveSource live, ShardLayouts layouts) {
    final List<ShardColumns> parts = new ArrayList<>();
    final List<List<ShardColumns>> subpartitions = new ArrayList<>();
    for (String shard : spec.shards()) {
      if (spec.isSubpartitioned()) {
        final List<ShardColumns> subparts =
            layouts.subpartitionColumns(ShardSetModel.shard(shards, shard), spec);
        subpartitions.add(subparts);
        parts.add(subparts.get(0));
      } else {
        parts.add(layouts.columns(ShardSetModel.shard(shards, shard), spec));
        subpartitions.add(List.of());
      }
    }
    final TableLayout layout = TableLayoutReader.combine(model, spec, parts);
    final ShardRouter router = spec.method() == ShardingMethod.DUPLICATED
        ? null : RouterFactory.create(model, spec, layout, layouts.directory(spec));
    final Subpartitioning subpartitioning = Subpartitioning.create(model, spec, layout);
    final List<ShardSite> sites = new ArrayList<>();
    for (int i = 0; i < layout.shards().size(); i++) {
      final PhysicalTable physical = layout.shards().get(i);
      final ShardSpec shard = ShardSetModel.shard(shards, physical.shard());
      final List<ShardSite> subpartitionSites = new ArrayList<>();
      for (ShardColumns subpartition : subpartitions.get(i)) {
        subpartitionSites.add(site(shard, layouts, subpartition.table(), List.of()));
      }
      sites.add(site(shard, layouts, physical, subpartitionSites));
    }
    return new ShardedTable(model.schema(), spec, layout, router, sites, model.parallelism(),
        subpartitioning, live, model.reshard());
  }

  private static ShardSite site(ShardSpec shard, ShardLayouts layouts,
      PhysicalTable physical, List<ShardSite> subpartitions) {
    return new ShardSite(shard.name(), layouts.endpoint(shard), layouts.quoting(shard),
        qualifiedName(shard, physical), physical.columns(), subpartitions);
  }

  /** The table name as a shard's SQL says it: qualified only as far as the model asks. */
  private static List<String> qualifiedName(ShardSpec shard, PhysicalTable table) {
    final List<String> names = new ArrayList<>();
    if (shard.jdbcCatalog() != null && table.catalog() != null) {
      names.add(table.catalog());
    }
    if (shard.jdbcSchema() != null && table.schema() != null) {
      names.add(table.schema());
    }
    names.add(table.table());
    return names;
  }
}
