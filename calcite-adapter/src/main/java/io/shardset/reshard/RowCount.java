package io.shardset.reshard;

import java.util.List;
import java.util.Objects;

/**
 * What a planned move of a shardspace's hash ranges moves, counted row by row: rows per
 * (source, target) shard pair and per table, and, for comparison, the rows that placing rows
 * by {@code hash % N} would move when the shardspace grows or shrinks the same way.
 *
 * @param shardspace the shardspace whose rows were counted
 * @param pairs the rows that move per shard pair, sorted by source and target; pairs that
 *     move nothing are absent
 * @param tables the counts per carried table, in model order
 * @param shardsBefore N, the shardspace's shards before the move
 * @param shardsAfter N', its shards after the move
 */
public record RowCount(String shardspace, List<PairCount> pairs, List<TableCount> tables,
    int shardsBefore, int shardsAfter) {
  /** The rows that move from shard {@code source} to shard {@code target}. */
  public record PairCount(String source, String target, long rows) {
    public PairCount {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(target, "target");
    }
  }

  /**
   * One carried table's rows in the shardspace.
   *
   * @param table the table's logical name
   * @param rows all its rows in the shardspace
   * @param movedRows the rows the move carries to another shard
   * @param moduloMovedRows the rows {@code hash % N} placement would move to another shard
   */
  public record TableCount(String table, long rows, long movedRows, long moduloMovedRows) {
    public TableCount {
      Objects.requireNonNull(table, "table");
    }
  }

  public RowCount {
    Objects.requireNonNull(shardspace, "shardspace");
    pairs = List.copyOf(pairs);
    tables = List.copyOf(tables);
  }

  /** All rows of the carried tables in the shardspace. */
  public long totalRows() {
    return tables.stream().mapToLong(TableCount::rows).sum();
  }

  /** The rows the move carries to another shard. */
  public long movedRows() {
    return tables.stream().mapToLong(TableCount::movedRows).sum();
  }

  /** The rows {@code hash % N} placement would move when N becomes N'. */
  public long moduloMovedRows() {
    return tables.stream().mapToLong(TableCount::moduloMovedRows).sum();
  }

  /** The fraction of all rows that the move carries; 0 when there are no rows. */
  public double movedFraction() {
    return fraction(movedRows());
  }

  /** The fraction of all rows that {@code hash % N} placement would move. */
  public double moduloMovedFraction() {
    return fraction(moduloMovedRows());
  }

  private double fraction(long rows) {
    final long total = totalRows();
    return total == 0 ? 0 : (double) rows / total;
  }
}
