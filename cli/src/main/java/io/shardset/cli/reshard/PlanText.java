package io.shardset.cli.reshard;

import io.shardset.model.ReshardSpec;
import io.shardset.reshard.ReshardPlan;
import io.shardset.reshard.RowCount;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The lines {@code reshard plan} prints: the ranges that move and the rows they carry. */
final class PlanText {
  /** How many ranges the listing shows before it abbreviates. */
  static final int RANGES_SHOWN = 10;

  private PlanText() {
  }

  /**
   * The plan's lines.
   *
   * @param count the rows counted for the plan, or null when nothing moves
   * @param modulo whether the shardspace grows or shrinks by one shard, so that the
   *     {@code hash % N} comparison means something
   */
  static List<String> lines(ReshardPlan plan, RowCount count, boolean modulo) {
    final List<String> lines = new ArrayList<>();
    lines.add("plan: " + plan.operation() + " (shardspace '" + plan.shardspace() + "')");
    if (plan.moves().isEmpty()) {
      lines.add("no hash range changes shard; no row moves");
      lines.add(String.format(Locale.ROOT, "chunk map: %,d entries before, %,d after",
          plan.chunkMapBefore().size(), plan.chunkMapAfter().size()));
      return lines;
    }
    lines.add(String.format(Locale.ROOT, "hash ranges that move: %,d (%.1f %% of the hash"
        + " space)", plan.moves().size(), plan.movedFraction() * 100));
    final Map<String, Integer> rangesPerPair = new LinkedHashMap<>();
    for (ReshardSpec.MoveSpec move : plan.moves()) {
      rangesPerPair.merge(move.source() + " -> " + move.target(), 1, Integer::sum);
    }
    final Map<String, Long> rowsPerPair = new LinkedHashMap<>();
    for (RowCount.PairCount pair : count.pairs()) {
      rowsPerPair.put(pair.source() + " -> " + pair.target(), pair.rows());
    }
    rangesPerPair.forEach((pair, ranges) -> lines.add(String.format(Locale.ROOT,
        "  %s: %,d ranges, %,d rows", pair, ranges, rowsPerPair.getOrDefault(pair, 0L))));
    lines.add(String.format(Locale.ROOT, "rows: %,d in the shardspace's tables, %,d move"
        + " (%.2f %%)", count.totalRows(), count.movedRows(), count.movedFraction() * 100));
    for (RowCount.TableCount table : count.tables()) {
      lines.add(String.format(Locale.ROOT, "  %s: %,d rows, %,d move", table.table(),
          table.rows(), table.movedRows()));
    }
    if (modulo) {
      lines.add(String.format(Locale.ROOT, "hash %% N placement (hash mod %d -> hash mod %d)"
          + " would move %,d rows (%.2f %%)", count.shardsBefore(), count.shardsAfter(),
          count.moduloMovedRows(), count.moduloMovedFraction() * 100));
    }
    lines.add("ranges (first hash, last hash + 1, from -> to):");
    final List<ReshardSpec.MoveSpec> moves = plan.moves();
    for (int i = 0; i < Math.min(RANGES_SHOWN, moves.size()); i++) {
      final ReshardSpec.MoveSpec move = moves.get(i);
      lines.add(String.format(Locale.ROOT, "  [%d, %d) %s -> %s", move.from(), move.to(),
          move.source(), move.target()));
    }
    if (moves.size() > RANGES_SHOWN) {
      lines.add(String.format(Locale.ROOT, "  ... %,d more", moves.size() - RANGES_SHOWN));
    }
    return lines;
  }
}
