package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.Directory;

import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * What a schema learns about its shards beyond the model while it is built: each table's
 * columns on each shard, each shard's SQL dialect and endpoint, and a lookup table's
 * directory.
 *
 * <p>{@link JdbcShardMetadata} reads them from the databases. Planning needs nothing else from
 * a shard, so an implementation that declares them lets a schema be planned against without
 * opening a connection; its plans are those of real shards that report the same.
 */
interface ShardMetadata extends AutoCloseable {
  /** Where queries for a shard go. */
  ShardEndpoint endpoint(ShardSpec shard);

  /**
   * A table's physical table and columns on one shard.
   *
   * @throws io.shardset.model.ModelException if the shard lacks the table
   */
  ShardColumns columns(ShardSpec shard, TableSpec table);

  /**
   * A subpartitioned table's subpartition tables and their columns on one shard, in model
   * order.
   *
   * @throws io.shardset.model.ModelException if the shard lacks a subpartition table
   */
  List<ShardColumns> subpartitionColumns(ShardSpec shard, TableSpec table);

  /** A shard's SQL dialect. */
  SqlDialect dialect(ShardSpec shard);

  /**
   * A lookup table's directory; null for other tables.
   *
   * @throws io.shardset.model.ModelException if the directory cannot be used
   */
  @Nullable Directory directory(TableSpec table);

  /** Releases what reading needed (connections); the values read stay valid. */
  @Override void close();
}
