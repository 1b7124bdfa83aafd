package io.shardset.calcite;

import io.shardset.model.ShardSpec;
import io.shardset.topology.ShardLayouts;

import org.apache.calcite.sql.SqlDialect;

/**
 * What a schema learns about its shards beyond the model while it is built: the layouts that
 * resolve its tables ({@link ShardLayouts}), and each shard's SQL dialect, which the planner
 * writes each shard's SQL in.
 *
 * <p>{@link JdbcShardMetadata} reads them from the databases. Planning needs nothing else from
 * a shard, so an implementation that declares them lets a schema be planned against without
 * opening a connection; its plans are those of real shards that report the same.
 */
interface ShardMetadata extends ShardLayouts {
  /** A shard's SQL dialect. */
  SqlDialect dialect(ShardSpec shard);
}
