package io.shardset.calcite;

import io.shardset.execution.ExecutionRuntime;
import io.shardset.execution.ModelResources;
import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardMetrics;
import io.shardset.model.CatalogSpec;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.sequence.SequenceRegistry;
import io.shardset.session.Sessions;
import io.shardset.topology.KnownLayouts;
import io.shardset.topology.KnownValues;
import io.shardset.topology.LiveModel;
import io.shardset.topology.LiveModels;
import io.shardset.topology.LiveSource;
import io.shardset.topology.ShardKey;
import io.shardset.topology.Topology;
import io.shardset.transaction.TransactionCoordinator;
import io.shardset.transaction.TransactionSettings;

import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What ShardSet holds open in a process: each model's shard pools and directory caches (its
 * {@link ExecutionRuntime}), the live models that follow model files, the cache of SQL
 * dialects, and the scans each JDBC connection has open.
 *
 * <p>One runtime serves a process: Calcite's {@link ShardSchemaFactory}, which Calcite
 * instantiates by name, finds it through {@link #get()}, which creates it on first use and
 * closes it at JVM shutdown; a server closes it explicitly when it stops. Embedders and tests
 * may create their own, each with state of its own.
 *
 * <h2>Lifecycle of a model's pools</h2>
 * Models are told apart by schema name and where Calcite read them: the model file, the inline
 * model text, else the shards' settings. Each schema built for a connection holds a lease on
 * its model's pools; the pools open with the first lease and close when the last is released.
 * Calcite calls the schema factory once per connection and never tells a schema that its
 * connection closed, so the lease is released by whoever notices: the {@code jdbc:shardset:}
 * driver when the connection closes ({@code ShardSetDriver} calls {@link ShardSchema#release()}),
 * and for {@code jdbc:calcite:} connections a {@link Cleaner} once the schema, and with it the
 * connection, is unreachable. Schemas built outside a connection
 * ({@link #schema(ShardSetModel)}) keep their model's pools open until the runtime closes.
 */
public final class ShardSetRuntime implements AutoCloseable {
  /**
   * The system property that publishes the process runtime's meters over JMX
   * ({@code -Dshardset.jmx=true}); off by default, since JMX's timers lock and allocate on
   * every shard statement (the w17 benchmark's point queries took 12 to 16 µs more CPU each).
   */
  public static final String JMX_PROPERTY = "shardset.jmx";

  /** The process's runtime that {@link #get()} hands out; written under the class's lock,
   * read without it (every statement asks for it). */
  private static volatile @Nullable ShardSetRuntime defaultRuntime;
  /** Whether the shutdown hook that closes the default runtime is registered; guarded by the
   * class. */
  private static boolean hookRegistered;

  private final ExecutionRuntime execution = new ExecutionRuntime();
  private final Topology topology = new Topology(execution);
  private final Dialects dialects = new Dialects();
  private final ModelTables modelTables = new ModelTables();
  private final OpenScans openScans = new OpenScans(execution.scanServices());
  private final Sessions sessions = new Sessions();
  private final SequenceRegistry sequences = new SequenceRegistry();
  /** The transaction coordinator of each model, by the model's resources. */
  private final Map<ModelResources, TransactionCoordinator> coordinators =
      new ConcurrentHashMap<>();
  /** The dialects last read from each shard, for building schemas while a shard is down. */
  private final KnownValues<ShardKey, SqlDialect> knownDialects = new KnownValues<>();
  private final Cleaner cleaner = Cleaner.create();
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Which model a schema belongs to: its name and where it was read from. */
  private record ModelKey(String schema, Object source) {
  }

  /** Creates a runtime with nothing open; its owner closes it. */
  public ShardSetRuntime() {
  }

  /**
   * The process's runtime: created on first use, and again after it was closed; closed at
   * JVM shutdown. Its meters are published over JMX when {@value #JMX_PROPERTY} is true
   * ({@link ShardMetrics}).
   */
  public static ShardSetRuntime get() {
    final ShardSetRuntime current = defaultRuntime;
    if (current != null && !current.isClosed()) {
      return current;
    }
    return getOrCreate();
  }

  private static synchronized ShardSetRuntime getOrCreate() {
    if (defaultRuntime == null || defaultRuntime.isClosed()) {
      defaultRuntime = new ShardSetRuntime();
      // The process's runtime alone: the MBeans of two runtimes would have the same names.
      if (Boolean.getBoolean(JMX_PROPERTY)) {
        defaultRuntime.execution.scanServices().metrics().publishOverJmx();
      }
      if (!hookRegistered) {
        hookRegistered = true;
        Runtime.getRuntime().addShutdownHook(
            new Thread(ShardSetRuntime::closeDefault, "shardset-runtime-shutdown"));
      }
    }
    return defaultRuntime;
  }

  private static void closeDefault() {
    final ShardSetRuntime runtime;
    synchronized (ShardSetRuntime.class) {
      runtime = defaultRuntime;
    }
    if (runtime != null) {
      runtime.close();
    }
  }

  /**
   * The schema a connection's model defines, as {@link ShardSchemaFactory} creates it: it
   * holds the model's pools open until {@link ShardSchema#release()} or until it is garbage.
   */
  public ShardSchema connect(String name, Map<String, Object> given) {
    // A model file that points at a catalog: the process follows the catalog's versions.
    final CatalogSpec catalog = ModelParser.catalog(name, given, System::getenv);
    if (catalog != null) {
      // The pools first: the process follows the catalog while they are open.
      final ExecutionRuntime.Lease lease = execution.acquire(
          new ModelKey(name, catalog.identity()));
      try {
        final LiveModel live = topology.liveModels().ofCatalog(name, catalog, given,
            lease.resources());
        final LiveModel.Snapshot snapshot = live.current();
        return leased(ShardSchema.create(snapshot.model(),
            new LiveSource(live, snapshot.version()), lease.resources(), this, lease), lease);
      } catch (RuntimeException | Error e) {
        lease.close();
        throw e;
      }
    }
    final ShardSetModel initial = ModelParser.parse(name, given, System::getenv);
    final LiveModel live = topology.liveModels().of(name, given, initial);
    final ModelKey key = new ModelKey(name, live != null ? live.file()
        : given.get("modelUri") instanceof String uri ? uri : shards(initial));
    final ExecutionRuntime.Lease lease = execution.acquire(key);
    try {
      final ShardSchema schema;
      if (live == null) {
        schema = ShardSchema.create(initial, null, lease.resources(), this, lease);
      } else {
        // The file may have changed since Calcite read it: build from what it says now.
        final LiveModel.Snapshot snapshot = live.current();
        schema = ShardSchema.create(snapshot.model(), new LiveSource(live, snapshot.version()),
            lease.resources(), this, lease);
      }
      return leased(schema, lease);
    } catch (RuntimeException | Error e) {
      lease.close();
      throw e;
    }
  }

  /** The schema, whose lease on its model's pools ends when it is garbage. */
  private ShardSchema leased(ShardSchema schema, ExecutionRuntime.Lease lease) {
    // Must not capture the schema, or it would never be unreachable.
    cleaner.register(schema, lease::close);
    return schema;
  }

  /**
   * A schema built outside any connection (by the loader or the resharding tool, say): its
   * model's pools, shared by every such schema of the same shards, stay open until this
   * runtime closes.
   */
  public ShardSchema schema(ShardSetModel model) {
    Objects.requireNonNull(model, "model");
    return ShardSchema.create(model, null, topology.pinned(model), this, null);
  }

  /** What tells a model's shards apart when nothing else names the model. */
  private static List<ShardSpec> shards(ShardSetModel model) {
    return List.copyOf(model.shards());
  }

  /** The models' pools and directories. */
  public ExecutionRuntime execution() {
    return execution;
  }

  /** The live models that follow model files. */
  public LiveModels liveModels() {
    return topology.liveModels();
  }

  /** The process's models, the layouts read from their shards, and tables resolved outside
   * any connection. */
  public Topology topology() {
    return topology;
  }

  /** The layouts last read from each shard. */
  KnownLayouts knownLayouts() {
    return topology.knownLayouts();
  }

  /** The dialects last read from each shard. */
  KnownValues<ShardKey, SqlDialect> knownDialects() {
    return knownDialects;
  }

  /** The scans each JDBC connection has open. */
  public OpenScans openScans() {
    return openScans;
  }

  /** The process's global sequences. */
  public SequenceRegistry sequences() {
    return sequences;
  }

  /** The session of each JDBC connection. */
  public Sessions sessions() {
    return sessions;
  }

  /**
   * The transaction coordinator of the model whose shards these resources reach, created
   * with the first schema built on them (whose model's settings it keeps) and closed with
   * them. Its decision log is the model's, by default next to the model file.
   *
   * @param endpoints the model's shard endpoints, by shard name
   * @param modelFile the model file the schema follows, or null
   * @param catalog the catalog the model is kept in, or null; the decision log is kept there
   *     unless the model names one
   */
  TransactionCoordinator coordinator(ModelResources resources, ShardSetModel model,
      Map<String, ShardEndpoint> endpoints, @Nullable Path modelFile,
      @Nullable CatalogSpec catalog) {
    return coordinators.computeIfAbsent(resources, r -> {
      final TransactionCoordinator coordinator = new TransactionCoordinator(
          TransactionSettings.of(model.schema(), model.transactions(), modelFile,
              inlineLogFolder(model), catalog), endpoints);
      r.closeWith(() -> {
        coordinators.remove(r);
        coordinator.close();
      });
      return coordinator;
    });
  }

  /**
   * Where the decision log of a model read from no file lives: a folder of the user's home
   * named after the model's shards (their names and JDBC URLs), so that every process using
   * these shards finds the same log, and no other shards share it (a log's records name
   * shards only by name, and its recovery would otherwise forget another model's decisions).
   */
  static Path inlineLogFolder(ShardSetModel model) {
    final StringBuilder shards = new StringBuilder();
    model.shards().stream()
        .map(shard -> shard.name() + "\u0000" + shard.jdbcUrl() + "\u0000")
        .sorted()
        .forEach(shards::append);
    final UUID id = UUID.nameUUIDFromBytes(shards.toString().getBytes(StandardCharsets.UTF_8));
    return Path.of(System.getProperty("user.home"), ".shardset", "transactions",
        id.toString());
  }

  Dialects dialects() {
    return dialects;
  }

  /** The tables built for each model version, which the connections opening on it share. */
  ModelTables modelTables() {
    return modelTables;
  }

  /** Whether {@link #close} ran. */
  public boolean isClosed() {
    return closed.get();
  }

  /**
   * Closes every scan still open, every model's pools and the threads scans run on; their
   * schemas fail from then on. More than once is fine.
   */
  @Override public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        openScans.close();
        topology.close();
        coordinators.values().forEach(TransactionCoordinator::close);
      } finally {
        execution.close();
      }
    }
  }
}
