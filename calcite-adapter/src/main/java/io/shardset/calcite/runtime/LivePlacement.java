package io.shardset.calcite.runtime;

import io.shardset.calcite.LiveRouting;
import io.shardset.calcite.LiveSource;
import io.shardset.calcite.ShardTable;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.routing.ShardRouter;
import io.shardset.topology.LiveModel;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * Where the rows a shard scan reads live under the model its model file holds now: a scan
 * planned under one version of the model runs under the version current when it executes,
 * routed by that version's chunk map and reading the move tables of a resharding in
 * progress.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 */
public final class LivePlacement {
  /**
   * How one version of the model places the scan's rows.
   *
   * @param router the router to use instead of the plan's, numbered as the plan numbers the
   *     shards; null when the plan's router is right
   * @param moveReaders the shards that read their move tables (numbered as the plan numbers
   *     them)
   * @param reshard the resharding in progress, or null
   * @param error why the scan cannot run under this version, or null
   */
  record Placement(long version, @Nullable ShardRouter router, BitSet moveReaders,
      @Nullable ReshardSpec reshard, @Nullable String error) {
    /** Whether the plan runs as it was made. */
    boolean isAsPlanned() {
      return router == null && moveReaders.isEmpty() && error == null;
    }
  }

  private final LiveSource source;
  private final ShardTable table;
  private final List<ShardTable> scanned;
  private volatile @Nullable Placement last;

  /**
   * Creates the placement of a scan.
   *
   * @param table the table that drives the scan
   * @param scanned every table the pushed work reads
   */
  public LivePlacement(LiveSource source, ShardTable table, List<ShardTable> scanned) {
    this.source = Objects.requireNonNull(source, "source");
    this.table = Objects.requireNonNull(table, "table");
    this.scanned = List.copyOf(scanned);
  }

  /** Starts an execution under the current version of the model. */
  LiveModel.Ticket enter() {
    return source.model().enter();
  }

  /** How a version of the model places the scan's rows. */
  Placement of(LiveModel.Snapshot snapshot) {
    final Placement known = last;
    if (known != null && known.version() == snapshot.version()) {
      return known;
    }
    final Placement placement = compute(snapshot);
    last = placement;
    return placement;
  }

  /** The scans (in the order of the tables the pushed work reads) whose rows the
   * resharding of a placement carries, so that its move readers read their move tables
   * too. */
  BitSet carried(Placement placement) {
    final ReshardSpec reshard = Objects.requireNonNull(placement.reshard(), "reshard");
    final BitSet carried = new BitSet();
    for (int scan = 0; scan < scanned.size(); scan++) {
      if (reshard.carries(scanned.get(scan).spec())) {
        carried.set(scan);
      }
    }
    return carried;
  }

  private Placement compute(LiveModel.Snapshot snapshot) {
    final ShardSetModel model = snapshot.model();
    final ReshardSpec reshard = model.reshard();
    final BitSet readers = new BitSet();
    if (reshard != null && scanned.stream().anyMatch(t -> reshard.carries(t.spec()))) {
      for (int i = 0; i < table.shardCount(); i++) {
        if (reshard.readsMoveTables(table.shardName(i))) {
          readers.set(i);
        }
      }
    }
    final LiveRouting routing = LiveRouting.of(table, snapshot);
    return routing.error() != null
        ? new Placement(snapshot.version(), null, new BitSet(), null, routing.error())
        : new Placement(snapshot.version(), routing.router(), readers, reshard, null);
  }
}
