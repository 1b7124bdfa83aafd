package io.shardset.calcite.runtime;

import io.shardset.calcite.ShardTable;
import io.shardset.model.ReshardSpec;
import io.shardset.topology.LiveModel;
import io.shardset.topology.LiveSource;
import io.shardset.topology.Placement;
import io.shardset.topology.ScanPlacement;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The texts a shard scan runs under the model its model file holds now: where the rows live
 * is the topology's question ({@link ScanPlacement}); this renders, and keeps, the texts in
 * which shards read the move tables of a resharding in progress.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 */
public final class LivePlacement {
  /** Move-reader texts kept per prepared statement. */
  static final int KEPT = 32;

  /** Renders the scan's texts for a resharding in progress. */
  public interface MoveRenderer {
    /**
     * The texts in which the shards of {@code moveReaders} read the tables {@code carried}
     * accepts together with their move tables.
     *
     * @param chosenSubpartitions the subpartitions query parameters select, or null for
     *     those the plan reads
     */
    ShardTexts render(@Nullable BitSet chosenSubpartitions, BitSet moveReaders,
        Predicate<ShardTable> carried);
  }

  /** What a rendered text depends on, as the key of the text cache. */
  private record TextKey(@Nullable BitSet chosen, BitSet readers, String shardspace) {
  }

  private final ScanPlacement placement;
  private final MoveRenderer renderer;
  private final TextCache<TextKey> texts = new TextCache<>(KEPT);

  /**
   * Creates the placement of a scan.
   *
   * @param source the model file the table's schema follows
   * @param table the table that drives the scan
   * @param scanned every table the pushed work reads
   */
  public LivePlacement(LiveSource source, ShardTable table, List<ShardTable> scanned,
      MoveRenderer renderer) {
    Objects.requireNonNull(source, "source");
    this.placement = new ScanPlacement(table.sharded(),
        scanned.stream().map(ShardTable::sharded).toList());
    this.renderer = Objects.requireNonNull(renderer, "renderer");
  }

  /** Starts an execution under the current version of the model. */
  LiveModel.Ticket enter() {
    return placement.enter();
  }

  /** How a version of the model places the scan's rows. */
  Placement of(LiveModel.Snapshot snapshot) {
    return placement.of(snapshot);
  }

  /** The texts of a placement with move readers. */
  ShardTexts texts(@Nullable BitSet chosen, Placement placement) {
    final ReshardSpec reshard = Objects.requireNonNull(placement.reshard(), "reshard");
    return texts.get(new TextKey(chosen, placement.moveReaders(), reshard.shardspace()),
        () -> renderer.render(chosen, placement.moveReaders(),
            t -> reshard.carries(t.spec())));
  }
}
