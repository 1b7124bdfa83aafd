package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;

import org.apache.calcite.sql.SqlDialect;

import java.util.List;
import java.util.Objects;

/**
 * One shard of one table: where to send queries, in which dialect, and the table's physical
 * name and column names there.
 *
 * @param name the shard's name in the model
 * @param endpoint the shard's connection pool
 * @param dialect the shard's SQL dialect, derived from its metadata
 * @param qualifiedName the physical table name as the shard's SQL should say it
 * @param physicalColumns the physical column names, in logical column order
 */
public record ShardSite(String name, ShardEndpoint endpoint, SqlDialect dialect,
    List<String> qualifiedName, List<String> physicalColumns) {
  public ShardSite {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(dialect, "dialect");
    qualifiedName = List.copyOf(qualifiedName);
    physicalColumns = List.copyOf(physicalColumns);
  }
}
