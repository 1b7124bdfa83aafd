package io.shardset.reshard;

import io.shardset.catalog.CatalogDatabase;
import io.shardset.catalog.CatalogMoveLock;
import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardingMethod;
import io.shardset.model.TableSpec;
import io.shardset.topology.Topology;
import io.shardset.transaction.PreparedBranches;
import io.shardset.transaction.TransactionSettings;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Moves the rows of a {@link ReshardPlan} online, step by step (see {@link Step}), recording in
 * the model file how far it got, so that {@link #resume()} finishes a move that stopped at any
 * point. Every step can run again without harm.
 *
 * <p>A move that stopped before ANNOUNCE left the model as it was: {@link #resume()} drops
 * the move tables it made, and the operation starts again with a new plan. Sources drop their
 * move tables at MERGE already (no reader reads them once the chunk map names the targets), so
 * a shard that leaves keeps none even if the move stops right after FINISH.
 */
public final class Mover {
  /**
   * How a move runs.
   *
   * @param grace how long to wait after each model change for other processes to re-read it
   * @param drainTimeout how long to wait for this process's executions under an older model
   * @param batchSize keys per DELETE, rows per committed COPY batch
   */
  public record Settings(Duration grace, Duration drainTimeout, int batchSize) {
    /** Ten seconds of grace, a minute to drain, batches of 1,000. */
    public static final Settings DEFAULT =
        new Settings(Duration.ofSeconds(10), Duration.ofMinutes(1), 1000);

    public Settings {
      Objects.requireNonNull(grace, "grace");
      Objects.requireNonNull(drainTimeout, "drainTimeout");
      if (grace.isNegative() || batchSize < 1) {
        throw new IllegalArgumentException("grace must not be negative, and batchSize must be"
            + " positive, got " + grace + " and " + batchSize);
      }
    }
  }

  private final Path modelFile;
  private final String schema;
  private final Settings settings;
  private final MoveListener listener;
  private final NewShardPreparer preparer;
  private final Topology topology;

  /**
   * A mover of one schema of a model file.
   *
   * @param preparer creates the tables of a shard that joins (add-shard)
   * @param topology the process's topology: its live models (those of this process's
   *     connections, which re-read the model file after each step and are waited for) and
   *     the tables resolved against the shards
   */
  public Mover(Path modelFile, String schema, Settings settings, MoveListener listener,
      NewShardPreparer preparer, Topology topology) {
    this.modelFile = Objects.requireNonNull(modelFile, "modelFile");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.preparer = Objects.requireNonNull(preparer, "preparer");
    this.topology = Objects.requireNonNull(topology, "topology");
  }

  /**
   * Runs a plan made from the model file's current model, to the end.
   *
   * @throws IllegalStateException if the model records a move already, or its chunk map is no
   *     longer the plan's
   */
  public void apply(ReshardPlan plan) throws SQLException, IOException, InterruptedException {
    try (Held lock = lock()) {
      applyLocked(plan);
    }
  }

  /** A lock held while a move works. */
  private interface Held extends AutoCloseable {
    @Override void close() throws SQLException, IOException;
  }

  /**
   * The lock of the schema: the catalog's, for a schema kept in one (movers may run on any
   * machine), else the model file's.
   */
  private Held lock() throws SQLException, IOException {
    final ModelFile.CatalogSchema catalog = ModelFile.read(modelFile).catalogSchema(schema);
    if (catalog != null) {
      return CatalogMoveLock.acquire(CatalogDatabase.of(catalog.spec()), schema)::close;
    }
    return MoveLock.acquire(modelFile)::close;
  }

  private void applyLocked(ReshardPlan plan)
      throws SQLException, IOException, InterruptedException {
    if (!plan.schema().equals(schema)) {
      throw new IllegalArgumentException("the plan is for schema '" + plan.schema()
          + "', not '" + schema + "'");
    }
    ModelFile file = ModelFile.read(modelFile);
    ShardSetModel model = file.model(schema);
    if (model.reshard() != null) {
      throw new IllegalStateException("schema '" + schema + "' has a move in progress ("
          + model.reshard().operation() + ", phase " + model.reshard().phase().modelName()
          + "); resume it first");
    }
    if (!ReshardPlanner.explicitChunkMap(model).equals(plan.chunkMapBefore())) {
      throw new IllegalStateException("the chunk map of schema '" + schema + "' changed since"
          + " the plan of " + plan.operation() + " was made; plan again");
    }
    ModelFile joined = plan.addedShard() == null ? file
        : file.withShard(schema, plan.addedShard(), tablesListing(model, plan.shardspace()));
    ModelFile during = joined.withChunkMap(schema, plan.chunkMapBefore())
        .withReshard(schema, plan.reshard(ReshardSpec.Phase.COPY));
    event(Step.PREPARE, "start");
    if (plan.addedShard() != null) {
      String shard = plan.addedShardName();
      event(Step.PREPARE, "new shard " + shard);
      ShardSetModel after = (plan.moves().isEmpty() ? joined : during).model(schema);
      preparer.prepare(model, after, shard);
      event(Step.PREPARE, "new shard " + shard + ": ready");
    }
    if (plan.moves().isEmpty()) {
      // Nothing moves (a split, or a shard without ranges): the model changes in one write.
      event(Step.PREPARE, "done");
      // A shardspace without hashed tables has no chunk map to write.
      ModelFile done = plan.chunkMapAfter().isEmpty()
          ? joined : joined.withChunkMap(schema, plan.chunkMapAfter());
      finish(plan.leaving() == null ? done : done.withoutShard(schema, plan.leaving()));
      return;
    }
    MovingFamily family = family(during);
    createMoveTables(family, true);
    event(Step.PREPARE, "done");
    event(Step.ANNOUNCE, "start");
    ModelFile announced = during.write();
    grace(Step.ANNOUNCE, announced);
    refreshDuplicated(announced);
    event(Step.ANNOUNCE, "done");
    copyPhase(announced, family);
  }

  /**
   * Finishes the move the model file records, from its phase; without one, drops the move
   * tables a finished move may have left.
   */
  public void resume() throws SQLException, IOException, InterruptedException {
    try (Held lock = lock()) {
      resumeLocked();
    }
  }

  private void resumeLocked() throws SQLException, IOException, InterruptedException {
    ModelFile file = ModelFile.read(modelFile);
    ReshardSpec reshard = file.model(schema).reshard();
    if (reshard == null) {
      dropLeftovers(file.model(schema));
      return;
    }
    MovingFamily family = family(file);
    if (reshard.phase() == ReshardSpec.Phase.COPY) {
      event(Step.PREPARE, "start");
      createMoveTables(family, false);
      event(Step.PREPARE, "done");
      refreshDuplicated(file);
      copyPhase(file, family);
    } else {
      switchedPhase(file, family);
    }
  }

  private void copyPhase(ModelFile file, MovingFamily family)
      throws SQLException, IOException, InterruptedException {
    RowMoves rows = new RowMoves(family, settings.batchSize());
    event(Step.DETACH, "start");
    awaitNoPrepared(family);
    for (String source : family.sources()) {
      try (Connection connection = family.connect(source)) {
        WriteBarrier.pass(connection, source, family.parts(source), settings.drainTimeout(),
            detail -> event(Step.DETACH, detail));
      }
    }
    perShard(Step.DETACH, "source", family.sources(), s -> rows.detach(s) + " rows");
    event(Step.DETACH, "done");

    event(Step.COPY, "start");
    long total = 0;
    for (String source : family.sources()) {
      total += rows.twinRows(source);
    }
    AtomicLong copied = new AtomicLong();
    long all = total;
    perShard(Step.COPY, "target", family.targets(),
        t -> rows.copy(t, batch -> listener.rows(copied.addAndGet(batch), all),
            (source, moved) -> listener.moved(source, t, moved)) + " rows");
    event(Step.COPY, "done");

    event(Step.VERIFY, "start");
    MoveCheck check = new MoveCheck(family);
    for (CarriedTable table : family.tables()) {
      event(Step.VERIFY, "table " + table.name() + ": " + check.verify(table) + " rows");
    }
    event(Step.VERIFY, "done");

    event(Step.SWITCH, "start");
    ReshardSpec reshard = file.model(schema).reshard();
    ModelFile switched = file.withChunkMap(schema, switchedChunkMap(file.model(schema)))
        .withReshard(schema, new ReshardSpec(reshard.shardspace(), ReshardSpec.Phase.SWITCHED,
            reshard.moves(), reshard.operation(), reshard.leaving()))
        .write();
    grace(Step.SWITCH, switched);
    event(Step.SWITCH, "done");
    switchedPhase(switched, family);
  }

  private void switchedPhase(ModelFile file, MovingFamily family)
      throws SQLException, IOException, InterruptedException {
    RowMoves rows = new RowMoves(family, settings.batchSize());
    event(Step.MERGE, "start");
    perShard(Step.MERGE, "target", family.targets(), t -> rows.merge(t) + " rows");
    // No reader reads a source's move tables once the chunk map names the targets.
    perShard(Step.MERGE, "source", family.sources(), s -> drop(family, s, false));
    event(Step.MERGE, "done");
    String leaving = file.model(schema).reshard().leaving();
    ModelFile done = file.withReshard(schema, null);
    finish(leaving == null ? done : done.withoutShard(schema, leaving));
    dropAll(family, false);
  }

  private void finish(ModelFile done) throws IOException, InterruptedException {
    event(Step.FINISH, "start");
    grace(Step.FINISH, done.write());
    event(Step.FINISH, "done");
  }

  private void dropLeftovers(ShardSetModel model) throws SQLException {
    dropAll(MovingFamily.leftovers(model, topology), true);
  }

  private void dropAll(MovingFamily family, boolean leftovers) throws SQLException {
    event(Step.DROP, "start");
    perShard(Step.DROP, "shard", family.shards(), shard -> drop(family, shard, leftovers));
    event(Step.DROP, "done");
  }

  /** PREPARE's move tables; {@code fresh} when the model records no move yet. */
  private void createMoveTables(MovingFamily family, boolean fresh) throws SQLException {
    perShard(Step.PREPARE, "move tables on", family.shards(), shard -> {
      try (Connection connection = family.connect(shard)) {
        return TwinTables.create(connection, family.parts(shard), fresh) + " created";
      }
    });
  }

  private static String drop(MovingFamily family, String shard, boolean leftovers)
      throws SQLException {
    try (Connection connection = family.connect(shard)) {
      return TwinTables.drop(connection, family.parts(shard), leftovers)
          + " move tables dropped";
    }
  }

  /** Work on one shard that says what it did. */
  @FunctionalInterface
  private interface ShardWork {
    String run(String shard) throws SQLException;
  }

  /** Runs a part of a step on each shard, telling the listener before and after each. */
  private void perShard(Step step, String role, List<String> shards, ShardWork work)
      throws SQLException {
    for (String shard : shards) {
      event(step, role + " " + shard);
      event(step, role + " " + shard + ": " + work.run(shard));
    }
  }

  /** The family of the move a model file records, with row owners before and after it. */
  private MovingFamily family(ModelFile file) {
    ShardSetModel during = file.model(schema);
    ShardSetModel after = file.withChunkMap(schema, switchedChunkMap(during))
        .withReshard(schema, null).model(schema);
    ShardSetModel before = file.withChunkMap(schema, copyChunkMap(during))
        .withReshard(schema, null).model(schema);
    return MovingFamily.of(during, before, after, topology);
  }

  /**
   * The model file as it reads once a plan is done: the new shard joined, the chunk map
   * switched (a shard that leaves is still listed).
   */
  public static ModelFile modelAfter(ModelFile file, ReshardPlan plan) {
    ShardSetModel model = file.model(plan.schema());
    ModelFile joined = plan.addedShard() == null ? file : file.withShard(plan.schema(),
        plan.addedShard(), tablesListing(model, plan.shardspace()));
    return joined.withChunkMap(plan.schema(), plan.chunkMapAfter());
  }

  /**
   * Copies the duplicated tables again to each target that holds no range yet (a shard that
   * joins): once every process knows the shard, no writer leaves it out any more, but one that
   * did not know it yet may have written since the prepare step copied them.
   */
  private void refreshDuplicated(ModelFile file) {
    ShardSetModel model = file.model(schema);
    ReshardSpec reshard = model.reshard();
    Set<String> owners = new HashSet<>();
    model.chunkMap().forEach(entry -> owners.add(entry.shard()));
    reshard.moves().stream().map(ReshardSpec.MoveSpec::target).distinct()
        .filter(target -> !owners.contains(target))
        .forEach(target -> event(Step.ANNOUNCE, "duplicated tables on " + target + ": "
            + TablePreparer.refreshDuplicated(model, target).values().stream()
                .mapToLong(Long::longValue).sum() + " rows"));
  }

  /** The consistent-hash tables of a shardspace that list their shards in the model. */
  private static List<String> tablesListing(ShardSetModel model, String shardspace) {
    return model.tables().stream()
        .filter(t -> t.method() == ShardingMethod.CONSISTENT_HASH
            && t.shardspace().equals(shardspace))
        .map(TableSpec::name).toList();
  }

  /** The chunk map with each moving range on its target. */
  private static List<ChunkMapSpec> switchedChunkMap(ShardSetModel model) {
    return chunkMapOn(model, ReshardSpec.MoveSpec::target);
  }

  /** The chunk map with each moving range on its source. */
  private static List<ChunkMapSpec> copyChunkMap(ShardSetModel model) {
    return chunkMapOn(model, ReshardSpec.MoveSpec::source);
  }

  /** The chunk map with each moving range on the shard {@code side} names. */
  private static List<ChunkMapSpec> chunkMapOn(ShardSetModel model,
      Function<ReshardSpec.MoveSpec, String> side) {
    return model.chunkMap().stream().map(entry -> {
      ReshardSpec.MoveSpec move = moveOf(model, entry);
      return move == null ? entry : new ChunkMapSpec(entry.from(), entry.to(), side.apply(move));
    }).toList();
  }

  private static ReshardSpec.MoveSpec moveOf(ShardSetModel model, ChunkMapSpec entry) {
    return model.reshard().moves().stream()
        .filter(m -> m.from() == entry.from() && m.to() == entry.to()
            && (m.source().equals(entry.shard()) || m.target().equals(entry.shard())))
        .findFirst().orElse(null);
  }

  /**
   * GRACE after a step was written: for a model kept in a catalog, until every process that
   * serves it has acknowledged the version written (one whose lease ran out is excluded);
   * for a model file, this process's readers re-read it and those under the older version
   * finish, then other processes get the configured time to re-read it.
   */
  private void grace(Step step, ModelFile written) throws InterruptedException {
    final ModelFile.CatalogSchema catalog = written.catalogSchema(schema);
    if (catalog != null) {
      topology.liveModels().wake(catalog.spec(), schema);
      try {
        new Acknowledgements(catalog.spec(), schema).await(catalog.version(),
            settings.drainTimeout(), detail -> event(step, detail));
      } catch (SQLException e) {
        throw new IllegalStateException("the catalog records the step (version "
            + catalog.version() + "), but cannot tell which processes run it: "
            + e.getMessage() + "; resume the move once the catalog answers", e);
      }
      return;
    }
    try {
      topology.liveModels().publishAndDrain(modelFile, settings.drainTimeout());
    } catch (TimeoutException e) {
      throw new IllegalStateException("the model file records the step, but " + e.getMessage()
          + "; resume the move once they finish", e);
    }
    if (!settings.grace().isZero()) {
      Thread.sleep(settings.grace().toMillis());
    }
  }

  /**
   * Waits until the sources hold no transaction of ShardSet's prepared: one a process decided
   * before the move was announced, and which it commits only now (it was paused, say, and
   * excluded for its lease), would add rows the copy could not see. Branches still prepared
   * after half the drain timeout are finished here, their coordinators fenced first (see
   * {@link PreparedBranches#finishStalled}): a coordinator that is paused holds them, and the
   * locks they hold, for as long as it stays paused.
   */
  private void awaitNoPrepared(MovingFamily family)
      throws SQLException, IOException, InterruptedException {
    final long start = System.nanoTime();
    final long patience = settings.drainTimeout().toNanos() / 2;
    final long deadline = start + settings.drainTimeout().toNanos();
    for (String source : family.sources()) {
      try (Connection connection = family.connect(source)) {
        List<String> prepared = PreparedBranches.on(connection);
        if (!prepared.isEmpty()) {
          event(Step.DETACH, "waiting for " + prepared.size() + " prepared transaction"
              + (prepared.size() == 1 ? "" : "s") + " on " + source);
        }
        boolean finished = false;
        while (!prepared.isEmpty()) {
          if (!finished && System.nanoTime() - start - patience > 0) {
            finished = true;
            for (String outcome : PreparedBranches.finishStalled(transactionSettings(),
                connection, prepared, Duration.ofSeconds(5))) {
              event(Step.DETACH, "prepared transaction on " + source + " still there after "
                  + settings.drainTimeout().dividedBy(2).toSeconds() + " s: " + outcome);
            }
          } else if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException("shard " + source + " holds " + prepared.size()
                + " prepared transaction" + (prepared.size() == 1 ? "" : "s") + " of ShardSet"
                + " (" + prepared.get(0) + (prepared.size() == 1 ? "" : ", ...") + ") that did"
                + " not end within " + settings.drainTimeout().toSeconds() + " s; resume the"
                + " move once recovery has finished them");
          } else {
            TimeUnit.MILLISECONDS.sleep(50);
          }
          prepared = PreparedBranches.on(connection);
        }
      }
    }
  }

  /** The schema's transaction settings, as each process serving the model reads them. */
  private TransactionSettings transactionSettings() throws IOException {
    final ModelFile file = ModelFile.read(modelFile);
    final ModelFile.CatalogSchema catalog = file.catalogSchema(schema);
    return TransactionSettings.of(schema, file.model(schema).transactions(), modelFile, null,
        catalog == null ? null : catalog.spec());
  }

  private void event(Step step, String detail) {
    listener.step(step, detail);
  }
}
