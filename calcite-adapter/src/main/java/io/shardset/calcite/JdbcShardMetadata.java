package io.shardset.calcite;

import io.shardset.execution.ModelResources;
import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardException;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.Directory;
import io.shardset.topology.IdentifierQuoting;
import io.shardset.topology.JdbcShardLayouts;
import io.shardset.topology.KnownLayouts;
import io.shardset.topology.KnownValues;
import io.shardset.topology.ShardKey;

import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * What a schema reads from its shards when a connection opens: the layouts
 * {@link JdbcShardLayouts} reads, and each shard's SQL dialect, which, like the layouts, falls
 * back on the one read last in this process while the shard cannot be reached.
 */
final class JdbcShardMetadata implements ShardMetadata {
  private final JdbcShardLayouts layouts;
  private final KnownValues<ShardKey, SqlDialect> knownDialects;
  private final Dialects dialects;

  /**
   * Reads the metadata of the model's shards, connecting to each on first use.
   *
   * @param resources the model's pools and directories
   * @param dialects the runtime's cache of dialects
   * @param knownLayouts the layouts earlier reads found
   * @param knownDialects the dialects earlier reads found
   */
  JdbcShardMetadata(ShardSetModel model, ModelResources resources, Dialects dialects,
      KnownLayouts knownLayouts, KnownValues<ShardKey, SqlDialect> knownDialects) {
    this.layouts = new JdbcShardLayouts(model, resources, knownLayouts);
    this.dialects = Objects.requireNonNull(dialects, "dialects");
    this.knownDialects = Objects.requireNonNull(knownDialects, "knownDialects");
  }

  @Override public ShardEndpoint endpoint(ShardSpec shard) {
    return layouts.endpoint(shard);
  }

  @Override public ShardColumns columns(ShardSpec shard, TableSpec table) {
    return layouts.columns(shard, table);
  }

  @Override public List<ShardColumns> subpartitionColumns(ShardSpec shard, TableSpec table) {
    return layouts.subpartitionColumns(shard, table);
  }

  @Override public IdentifierQuoting quoting(ShardSpec shard) {
    return layouts.quoting(shard);
  }

  /**
   * A shard's SQL dialect, shared with every shard of the same kind of database: from its
   * metadata, or when it cannot be reached, the last one read in this process.
   *
   * @throws ShardException if the shard cannot be reached and its dialect was never read
   */
  @Override public SqlDialect dialect(ShardSpec shard) {
    return knownDialects.readOrRecall(ShardKey.of(shard), () -> read(shard), e -> { },
        e -> JdbcShardLayouts.unknown(shard, "its SQL dialect", e));
  }

  private SqlDialect read(ShardSpec shard) {
    try {
      return dialects.of(layouts.connection(shard).getMetaData());
    } catch (SQLException e) {
      throw layouts.failure(shard, e);
    }
  }

  @Override public @Nullable Directory directory(TableSpec table) {
    return layouts.directory(table);
  }

  @Override public void close() {
    layouts.close();
  }
}
