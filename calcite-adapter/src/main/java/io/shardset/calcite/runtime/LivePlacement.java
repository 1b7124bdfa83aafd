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
import java.util.function.Predicate;

/**
 * Where the rows a shard scan reads live under the model its model file holds now: a scan
 * planned under one version of the model runs under the version current when it executes,
 * routed by that version's chunk map and reading the move tables of a resharding in
 * progress.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 */
public final class LivePlacement {
  /** Selections and move readers kept per prepared statement. */
  static final int KEPT = 32;

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

  private final LiveSource source;
  private final ShardTable table;
  private final List<ShardTable> scanned;
  private final MoveRenderer renderer;
  private final TextCache<TextKey> texts = new TextCache<>(KEPT);
  private volatile @Nullable Placement last;

  /**
   * Creates the placement of a scan.
   *
   * @param table the table that drives the scan
   * @param scanned every table the pushed work reads
   */
  public LivePlacement(LiveSource source, ShardTable table, List<ShardTable> scanned,
      MoveRenderer renderer) {
    this.source = Objects.requireNonNull(source, "source");
    this.table = Objects.requireNonNull(table, "table");
    this.scanned = List.copyOf(scanned);
    this.renderer = Objects.requireNonNull(renderer, "renderer");
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

  /** The texts of a placement with move readers. */
  ShardTexts texts(@Nullable BitSet chosen, Placement placement) {
    final ReshardSpec reshard = Objects.requireNonNull(placement.reshard(), "reshard");
    return texts.get(new TextKey(chosen, placement.moveReaders(), reshard.shardspace()),
        () -> renderer.render(chosen, placement.moveReaders(),
            t -> reshard.carries(t.spec())));
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
