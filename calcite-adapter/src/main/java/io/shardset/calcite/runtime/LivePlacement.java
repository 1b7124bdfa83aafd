package io.shardset.calcite.runtime;

import io.shardset.model.ReshardSpec;
import io.shardset.topology.LiveModel;
import io.shardset.topology.LiveSource;
import io.shardset.topology.Placement;
import io.shardset.topology.ScanPlacement;
import io.shardset.topology.ShardedTable;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * Where the rows a shard scan reads live under the model its model file holds now, as the
 * topology answers it ({@link ScanPlacement}), and which of the scan's tables read their move
 * tables beside them while a resharding runs, so that the prepared statement templates are
 * filled in for them.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 */
public final class LivePlacement {
  private final ScanPlacement placement;
  private final List<ShardedTable> scanned;

  /**
   * Creates the placement of a scan.
   *
   * @param table the table that drives the scan
   * @param scanned every table the pushed work reads
   */
  public LivePlacement(LiveSource source, ShardedTable table, List<ShardedTable> scanned) {
    Objects.requireNonNull(source, "source");
    this.placement = new ScanPlacement(table, scanned);
    this.scanned = List.copyOf(scanned);
  }

  /** Starts an execution under the current version of the model. */
  LiveModel.Ticket enter() {
    return placement.enter();
  }

  /** How a version of the model places the scan's rows. */
  Placement of(LiveModel.Snapshot snapshot) {
    return placement.of(snapshot);
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
}
