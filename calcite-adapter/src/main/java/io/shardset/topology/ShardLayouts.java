package io.shardset.topology;

import io.shardset.execution.ShardEndpoint;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.Directory;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * What resolving tables learns about the shards beyond the model: each table's columns on
 * each shard, how each shard quotes names, each shard's endpoint, and a lookup table's
 * directory.
 *
 * <p>{@link JdbcShardLayouts} reads them from the databases; an implementation that declares
 * them lets tables be resolved without opening a connection.
 */
public interface ShardLayouts extends AutoCloseable {
  /** Where statements for a shard go. */
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

  /** How a shard's SQL quotes identifiers. */
  IdentifierQuoting quoting(ShardSpec shard);

  /**
   * A lookup table's directory; null for other tables.
   *
   * @throws io.shardset.model.ModelException if the directory cannot be used
   */
  @Nullable Directory directory(TableSpec table);

  /** Releases what reading needed (connections); the values read stay valid. */
  @Override void close();
}
