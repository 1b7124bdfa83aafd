package io.shardset.topology;

/**
 * One physical table a row is written to: a shard of its table and, on that shard, one of
 * the table's physical tables ({@link ShardSite#tables()}: the subpartition's, or the only one).
 *
 * @param shard the shard, numbered as the table numbers its shards
 * @param table the physical table on that shard, numbered as {@link ShardSite#tables()}
 */
public record RowSite(int shard, int table) {
  public RowSite {
    if (shard < 0 || table < 0) {
      throw new IllegalArgumentException("shard " + shard + ", table " + table);
    }
  }
}
