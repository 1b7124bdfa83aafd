package io.shardset.topology;

import io.shardset.model.ShardSpec;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Identifies one shard's database, as far as what is read from it goes: its name, URL, user,
 * catalog and schema.
 */
public record ShardKey(String shard, String jdbcUrl, @Nullable String user,
    @Nullable String catalog, @Nullable String schema) {
  /** The key of a shard of the model. */
  public static ShardKey of(ShardSpec shard) {
    return new ShardKey(shard.name(), shard.jdbcUrl(), shard.jdbcUser(), shard.jdbcCatalog(),
        shard.jdbcSchema());
  }
}
