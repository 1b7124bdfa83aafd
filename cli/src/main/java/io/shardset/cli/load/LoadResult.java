package io.shardset.cli.load;

import io.shardset.load.RowRates;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a load did.
 *
 * @param table the table's qualified name
 * @param shardNames the table's shards
 * @param rowsPerShard rows written to each shard, in the order of {@code shardNames}
 * @param rows rows loaded (a row of a duplicated table counts once)
 * @param badRowCount bad rows met (skipped, or the one that stopped the load)
 * @param badRowReport the listed bad rows, and how many more there were
 * @param stoppedAt the bad row that stopped the load, or null if it ran to the end
 * @param elapsedNanos the load's duration
 */
public record LoadResult(String table, List<String> shardNames, List<Long> rowsPerShard,
    long rows, long badRowCount, List<String> badRowReport, @Nullable BadRow stoppedAt,
    long elapsedNanos) {
  public LoadResult {
    Objects.requireNonNull(table, "table");
    shardNames = List.copyOf(shardNames);
    rowsPerShard = List.copyOf(rowsPerShard);
    badRowReport = List.copyOf(badRowReport);
  }

  /** Whether the load ran to the end of its files. */
  public boolean completed() {
    return stoppedAt == null;
  }

  /** The summary printed at the end of a load. */
  public List<String> summary() {
    final List<String> lines = new ArrayList<>();
    final double seconds = elapsedNanos / 1e9;
    lines.add(String.format(Locale.ROOT, "%s %,d rows into %s in %.1f s (%,d rows/s)",
        completed() ? "Loaded" : "Stopped after", rows, table, seconds,
        RowRates.perSecond(rows, elapsedNanos)));
    final StringBuilder shards = new StringBuilder("  rows per shard:");
    for (int i = 0; i < shardNames.size(); i++) {
      shards.append(String.format(Locale.ROOT, " %s=%,d", shardNames.get(i),
          rowsPerShard.get(i)));
    }
    lines.add(shards.toString());
    if (stoppedAt != null) {
      lines.add("  bad row: " + stoppedAt);
      lines.add("  the rows before it are committed; nothing of it or after it was written."
          + " Fix it and run again, or give --skip-bad");
    } else {
      lines.add(String.format(Locale.ROOT, "  bad rows: %,d%s", badRowCount,
          badRowCount > 0 ? " (skipped)" : ""));
      badRowReport.forEach(line -> lines.add("    " + line));
    }
    return lines;
  }
}
