package io.shardset.calcite;

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
import io.shardset.topology.TableLayoutReader;

import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A schema of sharded tables, built from a validated model and the shards' metadata. */
public final class ShardSchema extends AbstractSchema {
  private final Map<String, Table> tables;

  private ShardSchema(Map<String, Table> tables) {
    this.tables = Map.copyOf(tables);
  }

  /**
   * Reads every table's layout from its shards, checks it, and builds the schema. A shard that
   * cannot be reached contributes the layout an earlier connection read (see
   * {@link JdbcShardMetadata}).
   */
  public static ShardSchema create(ShardSetModel model) {
    return create(model, null);
  }

  /**
   * Builds the schema as {@link #create(ShardSetModel)} does, for a model that its model file
   * may change while the schema is in use.
   *
   * @param live the model file the schema follows, or null
   */
  public static ShardSchema create(ShardSetModel model, @Nullable LiveSource live) {
    try (ShardMetadata metadata = new JdbcShardMetadata(model)) {
      return create(model, live, metadata);
    }
  }

  /**
   * Builds the schema from what {@code metadata} says of the shards; the caller closes it.
   *
   * @param live the model file the schema follows, or null
   */
  static ShardSchema create(ShardSetModel model, @Nullable LiveSource live,
      ShardMetadata metadata) {
    final Map<String, Table> tables = new LinkedHashMap<>();
    for (TableSpec spec : model.tables()) {
      final List<ShardColumns> parts = new ArrayList<>();
      final List<List<ShardColumns>> subpartitions = new ArrayList<>();
      for (String shard : spec.shards()) {
        if (spec.isSubpartitioned()) {
          final List<ShardColumns> subparts =
              metadata.subpartitionColumns(model.shard(shard), spec);
          subpartitions.add(subparts);
          parts.add(subparts.get(0));
        } else {
          parts.add(metadata.columns(model.shard(shard), spec));
          subpartitions.add(List.of());
        }
      }
      final TableLayout layout = TableLayoutReader.combine(model, spec, parts);
      final ShardRouter router = spec.method() == ShardingMethod.DUPLICATED
          ? null : RouterFactory.create(model, spec, layout, metadata.directory(spec));
      final Subpartitioning subpartitioning = Subpartitioning.create(model, spec, layout);
      final List<ShardSite> sites = new ArrayList<>();
      for (int i = 0; i < layout.shards().size(); i++) {
        final PhysicalTable physical = layout.shards().get(i);
        final ShardSpec shard = model.shard(physical.shard());
        final List<ShardSite> subpartitionSites = new ArrayList<>();
        for (ShardColumns subpartition : subpartitions.get(i)) {
          subpartitionSites.add(site(shard, metadata, subpartition.table(), List.of()));
        }
        sites.add(site(shard, metadata, physical, subpartitionSites));
      }
      tables.put(spec.name(),
          new ShardTable(model.schema(), spec, layout, router, sites, model.parallelism(),
              subpartitioning, live, model.reshard()));
    }
    return new ShardSchema(tables);
  }

  private static ShardSite site(ShardSpec shard, ShardMetadata metadata,
      PhysicalTable physical, List<ShardSite> subpartitions) {
    return new ShardSite(shard.name(), metadata.endpoint(shard), metadata.dialect(shard),
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

  /** The sharded table of that name.
   *
   * @throws IllegalArgumentException if the schema has no such table */
  public ShardTable table(String name) {
    final Table table = tables.get(name);
    if (table == null) {
      throw new IllegalArgumentException("no table '" + name + "'; tables are "
          + tables.keySet());
    }
    return (ShardTable) table;
  }

  @Override protected Map<String, Table> getTableMap() {
    return tables;
  }
}
