package io.shardset.topology;

import io.shardset.model.ShardColumns;

import java.util.List;

/**
 * What tables were last read from each shard: their physical tables and columns and how the
 * shard quotes names. Lets a schema be built while a shard is down, from what an earlier
 * build read from it.
 *
 * <p>Entries are keyed by what identifies a shard's database ({@link ShardKey}) and the
 * physical table name, and live as long as the instance; the process holds one (its
 * {@link Topology}), shared by every schema it builds.
 */
public final class KnownLayouts {
  /** Identifies one table on one shard. */
  record TableKey(ShardKey shard, String physicalName) {
  }

  private final KnownValues<TableKey, ShardColumns> columns = new KnownValues<>();
  private final KnownValues<TableKey, List<ShardColumns>> subpartitions = new KnownValues<>();
  private final KnownValues<ShardKey, IdentifierQuoting> quoting = new KnownValues<>();

  /** Each table's columns on each shard. */
  KnownValues<TableKey, ShardColumns> columns() {
    return columns;
  }

  /** Each subpartitioned table's subpartition tables on each shard. */
  KnownValues<TableKey, List<ShardColumns>> subpartitions() {
    return subpartitions;
  }

  /** How each shard quotes names. */
  KnownValues<ShardKey, IdentifierQuoting> quoting() {
    return quoting;
  }
}
