package io.shardset.topology;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * Where the rows a prepared scan reads live at each of its executions, under the version of
 * the model its model file holds then: {@link TablePlacement#forReading}, remembered for the
 * last version asked, since successive executions mostly run under the same one.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 */
public final class ScanPlacement {
  private final TablePlacement placement;
  private final List<ShardedTable> read;
  private volatile @Nullable Placement last;

  /**
   * Creates the placement of a scan.
   *
   * @param table the table that drives the scan; its model follows a model file
   * @param read every table the scan reads
   */
  public ScanPlacement(ShardedTable table, List<ShardedTable> read) {
    this.placement = TablePlacement.of(Objects.requireNonNull(table, "table"));
    this.read = List.copyOf(read);
    if (!placement.isLive()) {
      throw new IllegalArgumentException("table " + table.qualifiedName()
          + " follows no model file");
    }
  }

  /** Starts an execution under the current version of the model. */
  public LiveModel.Ticket enter() {
    return placement.enter();
  }

  /** How a version of the model places the scan's rows. */
  public Placement of(LiveModel.Snapshot snapshot) {
    final Placement known = last;
    if (known != null && known.version() == snapshot.version()) {
      return known;
    }
    final Placement computed = placement.forReading(snapshot, read);
    last = computed;
    return computed;
  }
}
