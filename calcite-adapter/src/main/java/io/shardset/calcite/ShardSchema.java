package io.shardset.calcite;

import io.shardset.execution.ExecutionRuntime;
import io.shardset.execution.ModelResources;
import io.shardset.execution.ShardEndpoint;
import io.shardset.model.SequenceSpec;
import io.shardset.model.ShardCheck;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.sequence.GlobalSequence;
import io.shardset.sequence.SequenceRegistry;
import io.shardset.session.Sessions;
import io.shardset.topology.LiveModel;
import io.shardset.topology.LiveSource;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.ShardedTableResolver;
import io.shardset.transaction.LogDatabase;
import io.shardset.transaction.TransactionCoordinator;
import io.shardset.transaction.TransactionSettings;

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
 *
 * <p>A schema of a model file follows the file for as long as its connection lives. Its tables
 * follow new chunk maps and resharding states themselves ({@link
 * io.shardset.topology.TablePlacement}); when a version of the file places a table on other
 * shards (a shard joined or left), the schema takes the tables of that version (built once per
 * version for every connection, see {@link ModelTables}), so a connection opened before a
 * resharding reads and writes as a new one does. {@link #generation()} tells plans made on
 * older tables apart.
 */
public final class ShardSchema extends AbstractSchema {
  /**
   * How many shards a schema reads metadata from at once: reading is mostly waiting for the
   * shards' answers, and each shard is read on one connection of its own pool.
   */
  private static final int READ_PARALLELISM = 16;

  /**
   * The tables of one version of the model, and the newest version of the model file found to
   * place every table on the same shards.
   *
   * @param number counts the tables a schema took, from 0
   */
  private record Generation(long number, long checkedVersion, Map<String, Table> tables) {
  }

  /** Builds the tables of another version of a model file. */
  @FunctionalInterface
  private interface TableBuilder {
    Map<String, Table> tables(LiveModel.Snapshot snapshot);
  }

  private final @Nullable LiveModel live;
  private final @Nullable TableBuilder builder;
  private final ExecutionRuntime.@Nullable Lease lease;
  private volatile Generation generation;

  private ShardSchema(Map<String, Table> tables, @Nullable LiveSource source,
      @Nullable TableBuilder builder, ExecutionRuntime.@Nullable Lease lease) {
    this.live = source == null || builder == null ? null : source.model();
    this.builder = builder;
    this.lease = lease;
    this.generation = new Generation(0, source == null ? -1 : source.builtVersion(),
        Map.copyOf(tables));
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
    final TableBuilder builder = live == null ? null : snapshot -> {
      final LiveSource source = new LiveSource(live.model(), snapshot.version());
      return runtime.modelTables().tables(resources, snapshot.model(), source,
          () -> read(snapshot.model(), source, resources, runtime));
    };
    return new ShardSchema(runtime.modelTables().tables(resources, model, live,
        () -> read(model, live, resources, runtime)), live, builder, lease);
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
              live == null ? null : live.model().file(),
              live == null ? null : live.model().catalog()),
          table -> new ShardStatistic(table, threads,
              sampled ? ShardStatistic.SAMPLE : Integer.MAX_VALUE), runtime.sequences());
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
        new TransactionCoordinator(), table -> TableStatistic.UNKNOWN, new SequenceRegistry()),
        live, null, null);
  }

  /**
   * Resolves the model's tables against what {@code metadata} says of the shards.
   *
   * @param statistics the statistic of each resolved table
   * @param sequences the process's global sequences
   */
  private static Map<String, Table> tables(ShardSetModel model, @Nullable LiveSource live,
      ShardMetadata metadata, OpenScans openScans, Sessions sessions,
      TransactionCoordinator coordinator, Function<ShardedTable, TableStatistic> statistics,
      SequenceRegistry sequences) {
    final Map<String, Table> tables = new LinkedHashMap<>();
    final Map<String, SequenceTable> sequenceTables = sequenceTables(model, coordinator,
        sequences);
    final Map<String, ShardSpec> shards = model.shardsByName();
    final List<String> shardNames = model.shards().stream().map(ShardSpec::name).toList();
    ShardedTableResolver.resolve(model, live, metadata).forEach((name, table) -> {
      final List<SqlDialect> dialects = new ArrayList<>();
      for (String shard : table.shardNames()) {
        dialects.add(metadata.dialect(ShardSetModel.shard(shards, shard)));
      }
      tables.put(name, new ShardTable(table, dialects, openScans, sessions, coordinator,
          statistics.apply(table), model.scatter().of(name),
          shardNames, columnSequences(model, table, sequenceTables)));
    });
    final Map<String, ShardTable> shardTables = new LinkedHashMap<>();
    tables.forEach((name, table) -> shardTables.put(name, (ShardTable) table));
    ModelReferences.check(model.schema(), shardTables);
    sequenceTables.forEach((name, sequence) -> {
      if (tables.putIfAbsent(name, sequence) != null) {
        throw new IllegalArgumentException("schema '" + model.schema() + "' has a table and a"
            + " sequence named '" + name + "'");
      }
    });
    return tables;
  }

  /**
   * The model's sequences, their blocks taken from the schema's shared database: the one its
   * decision log lives in (the catalog, for a model kept in one).
   */
  private static Map<String, SequenceTable> sequenceTables(ShardSetModel model,
      TransactionCoordinator coordinator, SequenceRegistry sequences) {
    final Map<String, SequenceTable> tables = new LinkedHashMap<>();
    final TransactionSettings settings = coordinator.settings();
    for (SequenceSpec spec : model.sequences().declared()) {
      final LogDatabase store = settings.log();
      tables.put(spec.name(), store == null
          ? SequenceTable.unavailable(spec.name(), String.valueOf(settings.noLog()))
          : SequenceTable.of(spec.name(), sequences.of(store, model.schema(), spec)));
    }
    return tables;
  }

  /**
   * The sequence of each column of a table that takes one's values, by column position.
   *
   * @throws IllegalArgumentException if the model names a column the table does not have
   */
  private static Map<Integer, GlobalSequence> columnSequences(ShardSetModel model,
      ShardedTable table, Map<String, SequenceTable> sequenceTables) {
    final Map<Integer, GlobalSequence> columns = new LinkedHashMap<>();
    model.sequences().ofTable(table.spec().name()).forEach((column, sequence) -> {
      final int position = table.layout().columnIndex(column);
      if (position < 0) {
        throw new IllegalArgumentException("table " + table.qualifiedName() + ": columnSequences"
            + " names column '" + column + "', which the table does not have");
      }
      columns.put(position, sequenceTables.get(sequence).sequence());
    });
    return columns;
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

  /**
   * Which tables the schema has now: a number that changes when the schema takes the tables of
   * a newer version of its model file, so that plans made on the older ones are not reused.
   */
  public long generation() {
    return current().number();
  }

  /**
   * The tables the schema has now, as an object whose identity tells them apart: the
   * connections that opened on the same version of the same model share it (see {@link
   * ModelTables}), so a plan made on it serves each of them.
   */
  public Object tablesIdentity() {
    return current().tables();
  }

  /** The names of the schema's sharded tables (not its sequences), sorted. */
  public List<String> tableNames() {
    return current().tables().entrySet().stream()
        .filter(e -> e.getValue() instanceof ShardTable).map(Map.Entry::getKey).sorted()
        .toList();
  }

  /** The sharded table of that name.
   *
   * @throws IllegalArgumentException if the schema has no such table */
  public ShardTable table(String name) {
    final Map<String, Table> tables = current().tables();
    if (!(tables.get(name) instanceof ShardTable table)) {
      throw new IllegalArgumentException("no table '" + name + "'; tables are "
          + tableNames());
    }
    return table;
  }

  @Override protected Map<String, Table> getTableMap() {
    return current().tables();
  }

  /**
   * The tables for the model file's current version: those the schema has, while the version
   * places every table on the shards they were built for; else those of the current version.
   */
  private Generation current() {
    final Generation seen = generation;
    if (live == null || builder == null) {
      return seen;
    }
    final LiveModel.Snapshot snapshot = live.current();
    if (snapshot.version() == seen.checkedVersion() || live.heldByCurrentThread() > 0) {
      // An execution or a transaction of this thread runs under the version it entered, which
      // the tables it has fit: they are changed once it ends.
      return seen;
    }
    synchronized (this) {
      final Generation now = generation;
      if (snapshot.version() == now.checkedVersion()) {
        return now;
      }
      // A failed build leaves the tables as they were: the statement fails with its error,
      // and the next one tries again.
      generation = placesAsBuilt(now.tables(), snapshot.model())
          ? new Generation(now.number(), snapshot.version(), now.tables())
          : new Generation(now.number() + 1, snapshot.version(),
              Map.copyOf(builder.tables(snapshot)));
      return generation;
    }
  }

  /** Whether the model has the same tables as {@code tables}, each on the same shards. */
  private static boolean placesAsBuilt(Map<String, Table> tables, ShardSetModel model) {
    final long shardTables = tables.values().stream().filter(ShardTable.class::isInstance)
        .count();
    if (model.tables().size() != shardTables) {
      return false;
    }
    for (TableSpec spec : model.tables()) {
      if (!(tables.get(spec.name()) instanceof ShardTable table)
          || !table.sharded().shardNames().equals(spec.shards())) {
        return false;
      }
    }
    return true;
  }
}
