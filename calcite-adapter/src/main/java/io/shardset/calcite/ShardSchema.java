package io.shardset.calcite;

import io.shardset.execution.ExecutionRuntime;
import io.shardset.execution.ModelResources;
import io.shardset.execution.ShardEndpoint;
import io.shardset.model.ShardCheck;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.session.Sessions;
import io.shardset.topology.LiveSource;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.ShardedTableResolver;
import io.shardset.transaction.TransactionCoordinator;

import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A schema of sharded tables, built from a validated model and the shards' metadata.
 *
 * <p>A schema built for a connection holds its model's pools open (a lease on them, see
 * {@link ShardSetRuntime}) until {@link #release()} or until it is garbage: the last schema of
 * a model to go closes the model's pools.
 */
public final class ShardSchema extends AbstractSchema {
  /**
   * How many shards a schema reads metadata from at once: reading is mostly waiting for the
   * shards' answers, and each shard is read on one connection of its own pool.
   */
  private static final int READ_PARALLELISM = 16;

  private final Map<String, Table> tables;
  private final ExecutionRuntime.@Nullable Lease lease;

  private ShardSchema(Map<String, Table> tables, ExecutionRuntime.@Nullable Lease lease) {
    this.tables = Map.copyOf(tables);
    this.lease = lease;
  }

  /**
   * Builds the schema on a model's resources, from the tables the runtime built for this
   * version of the model (see {@link ModelTables}) or else from the shards' metadata, read
   * several shards at a time.
   *
   * @param live the model file the schema follows, or null
   * @param lease what holds the resources open for the schema, released with it; null when
   *     the resources stay open regardless
   */
  static ShardSchema create(ShardSetModel model, @Nullable LiveSource live,
      ModelResources resources, ShardSetRuntime runtime,
      ExecutionRuntime.@Nullable Lease lease) {
    return new ShardSchema(runtime.modelTables().tables(resources, model, live,
        () -> read(model, live, resources, runtime)), lease);
  }

  /**
   * Reads the shards' metadata and builds the tables of a model: from every shard, or under
   * {@code "checkShards": "onFirstUse"} from one shard of each kind per table, the others
   * checked when first connected to (see {@link SampledShardMetadata}).
   */
  private static Map<String, Table> read(ShardSetModel model, @Nullable LiveSource live,
      ModelResources resources, ShardSetRuntime runtime) {
    final ShardMetadata reader = new JdbcShardMetadata(model, resources, runtime.dialects(),
        runtime.knownLayouts(), runtime.knownDialects());
    final boolean sampled = model.checkShards() == ShardCheck.ON_FIRST_USE;
    try (ShardMetadata metadata = sampled
        ? new SampledShardMetadata(model, reader, runtime.dialects())
        : PrefetchedShardMetadata.read(model, reader,
            runtime.execution().scanServices().threads(), READ_PARALLELISM)) {
      final Map<String, ShardEndpoint> endpoints = new LinkedHashMap<>();
      // The coordinator's recovery finishes prepared branches whatever a shard's tables are:
      // it gets the shards' endpoints without the first-use check.
      model.shards().forEach(shard -> endpoints.put(shard.name(), reader.endpoint(shard)));
      final Executor threads = runtime.execution().scanServices().threads();
      return tables(model, live, metadata, runtime.openScans(), runtime.sessions(),
          runtime.coordinator(resources, model, endpoints,
              live == null ? null : live.model().file()),
          table -> new ShardRowCount(table, threads,
              sampled ? ShardRowCount.SAMPLE : Integer.MAX_VALUE));
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
    return new ShardSchema(tables(model, live, metadata, openScans, new Sessions(),
        new TransactionCoordinator(), table -> Statistics.UNKNOWN), null);
  }

  /**
   * Resolves the model's tables against what {@code metadata} says of the shards.
   *
   * @param statistics the statistic of each resolved table
   */
  private static Map<String, Table> tables(ShardSetModel model, @Nullable LiveSource live,
      ShardMetadata metadata, OpenScans openScans, Sessions sessions,
      TransactionCoordinator coordinator, Function<ShardedTable, Statistic> statistics) {
    final Map<String, Table> tables = new LinkedHashMap<>();
    final Map<String, ShardSpec> shards = model.shardsByName();
    final List<String> shardNames = model.shards().stream().map(ShardSpec::name).toList();
    ShardedTableResolver.resolve(model, live, metadata).forEach((name, table) -> {
      final List<SqlDialect> dialects = new ArrayList<>();
      for (String shard : table.shardNames()) {
        dialects.add(metadata.dialect(ShardSetModel.shard(shards, shard)));
      }
      tables.put(name, new ShardTable(table, dialects, openScans, sessions, coordinator,
          statistics.apply(table), model.scatter().of(name),
          shardNames));
    });
    final Map<String, ShardTable> shardTables = new LinkedHashMap<>();
    tables.forEach((name, table) -> shardTables.put(name, (ShardTable) table));
    ModelReferences.check(model.schema(), shardTables);
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

  /** The names of the schema's tables, sorted. */
  public List<String> tableNames() {
    return tables.keySet().stream().sorted().toList();
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
