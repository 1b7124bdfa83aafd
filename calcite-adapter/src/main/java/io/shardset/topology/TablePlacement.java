package io.shardset.topology;

import io.shardset.model.ReshardSpec;
import io.shardset.model.RouterFactory;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.Subpartitioning;
import io.shardset.model.TableSpec;
import io.shardset.routing.KeyHasher;
import io.shardset.routing.KeyType;
import io.shardset.routing.RenumberedRouter;
import io.shardset.routing.ShardRouter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Where a table's rows live under a version of its model: which shards and physical tables
 * hold them, the router numbered as the table numbers its shards, which shards also read
 * move tables while a resharding is in progress, and what a writer must do about the ranges
 * it moves. Scans, loaders and the resharding tool all ask it.
 *
 * <p>A table resolved under one version of its model file is used under the version current
 * when each execution starts; {@link #enter()} pins that version for the execution.
 */
public final class TablePlacement {
  private final ShardedTable table;

  private TablePlacement(ShardedTable table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  /** The placement of a table's rows. */
  public static TablePlacement of(ShardedTable table) {
    return new TablePlacement(table);
  }

  /** The table whose rows this places. */
  public ShardedTable table() {
    return table;
  }

  /** Whether the table's model can change while it is used (it follows a model file). */
  public boolean isLive() {
    return table.live() != null;
  }

  /**
   * Starts an execution under the current version of the table's model file: the resharding
   * tool waits for executions under older versions before its next step.
   *
   * @throws IllegalStateException if the table's model cannot change
   */
  public LiveModel.Ticket enter() {
    final LiveSource live = table.live();
    if (live == null) {
      throw new IllegalStateException("table " + table.qualifiedName()
          + " follows no model file");
    }
    return live.model().enter();
  }

  /** The current snapshot of the table's model file; null if the model cannot change. */
  public LiveModel.@Nullable Snapshot current() {
    final LiveSource live = table.live();
    return live == null ? null : live.model().current();
  }

  /** The placement of a table whose model cannot change: as built. */
  public Placement asBuilt() {
    return new Placement(-1, null, new BitSet(), table.reshard(), null);
  }

  /**
   * Where a statement reading the table, together with {@code read} (every table it reads),
   * finds the rows under a snapshot of the model file: the snapshot's router, and the shards
   * that read the move tables of a resharding that carries one of the tables read. A
   * placement the table cannot follow carries an error instead.
   */
  public Placement forReading(LiveModel.Snapshot snapshot, List<ShardedTable> read) {
    final ReshardSpec reshard = snapshot.model().reshard();
    final BitSet readers = new BitSet();
    if (reshard != null && read.stream().anyMatch(t -> reshard.carries(t.spec()))) {
      for (int i = 0; i < table.shardCount(); i++) {
        if (reshard.readsMoveTables(table.shardName(i))) {
          readers.set(i);
        }
      }
    }
    return routed(snapshot, readers, reshard);
  }

  /**
   * Where a writer puts the table's rows under a snapshot of the model file: the snapshot's
   * router, and the resharding whose moving ranges the writer must leave alone (see
   * {@link #movingRangeOf}).
   *
   * @throws IllegalStateException if the snapshot puts the table on other shards than those
   *     the table writes to (a shard joined or left), or places its rows where the table
   *     cannot write them
   */
  public Placement forWriting(LiveModel.Snapshot snapshot) {
    return forWriting(snapshot, "as when this loader started; start the load again");
  }

  /**
   * Where a writer puts the table's rows under a snapshot of the model file, as {@link
   * #forWriting(LiveModel.Snapshot)}; {@code since} ends the error's message, saying when the
   * writer's table was made and what to do.
   */
  public Placement forWriting(LiveModel.Snapshot snapshot, String since) {
    final TableSpec now = find(snapshot.model()).orElse(null);
    final List<String> built = table.shardNames();
    if (now != null && !now.shards().equals(built)) {
      // Rows written to the old shards only would leave a joining shard's copy, or a
      // leaving shard's rows, different from what the model says.
      throw new IllegalStateException("table " + table.qualifiedName() + ": the model now"
          + " places it on shards " + now.shards() + ", not " + built + " " + since);
    }
    final Placement placement = routed(snapshot, new BitSet(), snapshot.model().reshard());
    placement.routerOr(null); // throws the error, if any
    return placement;
  }

  /**
   * The move of a resharding in progress whose hash range holds a row the placement routes
   * to {@code shard}, or null. A writer must not write such a row beside the move tables: the
   * resharding tool fills and empties them, and the row would be lost or read twice.
   *
   * @param row the row's values, in the table's column order
   * @param shard the table's shard the row is routed to
   */
  public ReshardSpec.@Nullable MoveSpec movingRangeOf(Placement placement, Object[] row,
      int shard) {
    final ReshardSpec reshard = placement.reshard();
    if (reshard == null || !reshard.carries(table.spec())) {
      return null;
    }
    final List<KeyType> types = table.keyTypes();
    final List<Object> shardKey = new ArrayList<>();
    for (String column : table.spec().shardKey()) {
      shardKey.add(row[table.layout().columnIndex(column)]);
    }
    final long hash = KeyHasher.hash(KeyHasher.keyBytes(
        types.subList(types.size() - shardKey.size(), types.size()), shardKey));
    final ReshardSpec.MoveSpec move = reshard.moveOf(hash);
    // Only a row of the moving shardspace moves: a composite table's row of another set
    // lies on another shardspace's shards.
    final String name = table.shardName(shard);
    return move != null && (move.source().equals(name) || move.target().equals(name))
        ? move : null;
  }

  /**
   * The physical tables a row of the table goes to under a placement: one for a sharded
   * table (its shard's, or its subpartition's table there), one on every shard for a
   * duplicated table. The row's values are in the table's column order, as JDBC values or
   * Calcite's internal ones (days for a DATE, milliseconds for a TIMESTAMP): both route alike.
   *
   * @param placement from {@link #asBuilt()} or {@link #forWriting}
   * @throws PlacementException if no shard accepts the row's key (or a NULL in it), no
   *     subpartition accepts its subpartition column, or its key lies in a range a resharding
   *     in progress moves (retryable; the message says which range, and the caller says
   *     when to write it again)
   * @throws IllegalStateException if the placement carries an error (the model no longer
   *     places the table where this process can write)
   */
  public List<RowSite> place(Placement placement, Object[] row) {
    if (table.isDuplicated()) {
      final List<RowSite> sites = new ArrayList<>(table.shardCount());
      for (int shard = 0; shard < table.shardCount(); shard++) {
        sites.add(new RowSite(shard, 0));
      }
      return sites;
    }
    final int subpartition = subpartitionOf(row);
    return List.of(new RowSite(shardOf(placement, row), subpartition));
  }

  /** The number of physical tables on each of the table's shards: one, or one per
   * subpartition. */
  public int tablesPerShard() {
    final Subpartitioning sub = table.subpartitioning();
    return sub == null ? 1 : sub.count();
  }

  private int subpartitionOf(Object[] row) {
    final Subpartitioning sub = table.subpartitioning();
    if (sub == null) {
      return 0;
    }
    final OptionalInt subpartition;
    try {
      subpartition = sub.subpartitionOf(row);
    } catch (IllegalArgumentException e) {
      throw unplaceable(PlacementException.Reason.NO_SUBPARTITION, "no subpartition accepts "
          + table.layout().columns().get(sub.column()).name() + " = " + row[sub.column()]
          + ": " + e.getMessage());
    }
    if (subpartition.isEmpty()) {
      throw unplaceable(PlacementException.Reason.NO_SUBPARTITION, "no subpartition accepts "
          + table.layout().columns().get(sub.column()).name() + " = " + row[sub.column()]);
    }
    return subpartition.getAsInt();
  }

  private int shardOf(Placement placement, Object[] row) {
    final ShardRouter router = Objects.requireNonNull(placement.routerOr(table.router()),
        "router");
    final List<Object> key = new ArrayList<>();
    for (int column : table.keyColumns()) {
      key.add(row[column]);
    }
    final OptionalInt shard;
    try {
      shard = router.shardOf(key);
    } catch (IllegalArgumentException e) {
      throw unplaceable(PlacementException.Reason.NO_SHARD, "no shard accepts key "
          + describeKey(key) + ": " + e.getMessage());
    }
    if (shard.isEmpty()) {
      if (key.contains(null)) {
        throw unplaceable(PlacementException.Reason.NULL_KEY, "no shard accepts key "
            + describeKey(key) + " (a key column is NULL)");
      }
      throw unplaceable(PlacementException.Reason.NO_SHARD, "no shard accepts key "
          + describeKey(key));
    }
    final ReshardSpec.MoveSpec move = movingRangeOf(placement, row, shard.getAsInt());
    if (move != null) {
      throw unplaceable(PlacementException.Reason.MOVING, "key " + describeKey(key)
          + " lies in hash range [" + move.from() + ", " + move.to() + ") of shardspace '"
          + placement.reshard().shardspace() + "', which is moving from " + move.source()
          + " to " + move.target());
    }
    return shard.getAsInt();
  }

  private String describeKey(List<Object> key) {
    final List<String> parts = new ArrayList<>();
    for (int i = 0; i < key.size(); i++) {
      parts.add(table.spec().routingKey().get(i) + " = " + key.get(i));
    }
    return String.join(", ", parts);
  }

  private PlacementException unplaceable(PlacementException.Reason reason, String what) {
    return new PlacementException(reason, table.qualifiedName(), "table "
        + table.qualifiedName() + ": " + what);
  }

  /**
   * How another model routes the table's rows: its declaration of the table, and a router
   * built from it over the columns the shards hold, numbered as that declaration numbers its
   * shards; empty if the model has no table of this name.
   */
  public Optional<ModelRouting> under(ShardSetModel model) {
    return find(model).map(spec -> new ModelRouting(spec,
        RouterFactory.create(model, spec, table.layout(), null)));
  }

  /**
   * A table's declaration in a model and its router there.
   *
   * @param router numbered as {@code spec.shards()}; null for a duplicated table
   */
  public record ModelRouting(TableSpec spec, @Nullable ShardRouter router) {
    public ModelRouting {
      Objects.requireNonNull(spec, "spec");
    }
  }

  private Optional<TableSpec> find(ShardSetModel model) {
    return model.tables().stream().filter(t -> t.name().equals(table.spec().name()))
        .findFirst();
  }

  /** The placement with the snapshot's router, or with the error why there is none. */
  private Placement routed(LiveModel.Snapshot snapshot, BitSet readers,
      @Nullable ReshardSpec reshard) {
    final LiveSource source = table.live();
    final TableSpec built = table.spec();
    if (source == null || snapshot.version() == source.builtVersion()
        || built.hashedShardspaces().isEmpty()) {
      // Only chunk maps change while the process runs; other placements stay as built.
      return new Placement(snapshot.version(), null, readers, reshard, null);
    }
    final ShardSetModel model = snapshot.model();
    final TableSpec spec = find(model).orElse(null);
    if (spec == null) {
      return failed(snapshot, "the model of schema '" + model.schema()
          + "' no longer has table '" + built.name() + "'; prepare the statement again");
    }
    for (String shard : placedShards(model, spec)) {
      if (table.shardIndex(shard) < 0) {
        return failed(snapshot, "the model of schema '" + model.schema()
            + "' now places rows of table '" + built.name() + "' on shard '" + shard
            + "', which this statement's plan does not know; prepare it again");
      }
    }
    final ShardRouter fresh = RouterFactory.create(model, spec, table.layout(), null);
    final int[] numbers = spec.shards().stream().mapToInt(table::shardIndex).toArray();
    return new Placement(snapshot.version(),
        new RenumberedRouter(fresh, numbers, table.shardCount()), readers, reshard, null);
  }

  private static Placement failed(LiveModel.Snapshot snapshot, String error) {
    return new Placement(snapshot.version(), null, new BitSet(), null, error);
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
