package io.shardset.calcite;

import io.shardset.execution.ExecutionRuntime;
import io.shardset.execution.ModelResources;
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

/**
 * A schema of sharded tables, built from a validated model and the shards' metadata.
 *
 * <p>A schema built for a connection holds its model's pools open (a lease on them, see
 * {@link ShardSetRuntime}) until {@link #release()} or until it is garbage: the last schema of
 * a model to go closes the model's pools.
 */
public final class ShardSchema extends AbstractSchema {
  private final Map<String, Table> tables;
  private final ExecutionRuntime.@Nullable Lease lease;

  private ShardSchema(Map<String, Table> tables, ExecutionRuntime.@Nullable Lease lease) {
    this.tables = Map.copyOf(tables);
    this.lease = lease;
  }

  /**
   * Reads every table's layout from its shards, checks it, and builds the schema on the
   * process's default runtime, whose pools for these shards stay open until the runtime
   * closes (see {@link ShardSetRuntime#schema(ShardSetModel)}). A shard that cannot be reached
   * contributes the layout an earlier connection read (see {@link JdbcShardMetadata}).
   */
  public static ShardSchema create(ShardSetModel model) {
    return ShardSetRuntime.get().schema(model);
  }

  /**
   * Builds the schema on a model's resources, reading the shards' metadata.
   *
   * @param live the model file the schema follows, or null
   * @param lease what holds the resources open for the schema, released with it; null when
   *     the resources stay open regardless
   */
  static ShardSchema create(ShardSetModel model, @Nullable LiveSource live,
      ModelResources resources, ShardSetRuntime runtime,
      ExecutionRuntime.@Nullable Lease lease) {
    try (ShardMetadata metadata = new JdbcShardMetadata(model, resources, runtime.dialects())) {
      final Map<String, Table> tables = tables(model, live, metadata, runtime.openScans());
      return new ShardSchema(tables, lease);
    }
  }

  /**
   * Builds the schema from what {@code metadata} says of the shards; the caller closes it.
   *
   * @param live the model file the schema follows, or null
   * @param openScans where the tables' scans are tracked
   */
  static ShardSchema create(ShardSetModel model, @Nullable LiveSource live,
      ShardMetadata metadata, OpenScans openScans) {
    return new ShardSchema(tables(model, live, metadata, openScans), null);
  }

  private static Map<String, Table> tables(ShardSetModel model, @Nullable LiveSource live,
      ShardMetadata metadata, OpenScans openScans) {
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
              subpartitioning, live, model.reshard(), openScans));
    }
    return tables;
  }

  /**
   * Lets go of the model's pools for this schema: the connection that built it closed. The
   * last schema of a model to let go closes the model's pools; more than once is fine.
   */
  public void release() {
    if (lease != null) {
      lease.close();
    }
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
