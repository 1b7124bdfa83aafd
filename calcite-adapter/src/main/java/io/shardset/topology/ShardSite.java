package io.shardset.topology;

import io.shardset.execution.ShardEndpoint;

import java.util.List;
import java.util.Objects;

/**
 * One shard of one table: where to send statements, how its SQL quotes names, and the
 * table's physical name and column names there.
 *
 * @param name the shard's name in the model
 * @param endpoint the shard's connection pool
 * @param quoting how the shard's SQL quotes identifiers
 * @param qualifiedName the physical table name as the shard's SQL should say it
 * @param physicalColumns the physical column names, in logical column order
 * @param subpartitions for a subpartitioned table, the site of each subpartition table on
 *     this shard, in model order (the shard's own names are then those of the first); empty
 *     otherwise
 */
public record ShardSite(String name, ShardEndpoint endpoint, IdentifierQuoting quoting,
    List<String> qualifiedName, List<String> physicalColumns, List<ShardSite> subpartitions) {
  public ShardSite {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(quoting, "quoting");
    qualifiedName = List.copyOf(qualifiedName);
    physicalColumns = List.copyOf(physicalColumns);
    subpartitions = List.copyOf(subpartitions);
  }

  /** A site of a table that the shard holds as one physical table. */
  public ShardSite(String name, ShardEndpoint endpoint, IdentifierQuoting quoting,
      List<String> qualifiedName, List<String> physicalColumns) {
    this(name, endpoint, quoting, qualifiedName, physicalColumns, List.of());
  }

  /** The physical tables that hold the table's rows on this shard: each subpartition's, or
   * this one. */
  public List<ShardSite> tables() {
    return subpartitions.isEmpty() ? List.of(this) : subpartitions;
  }

  /** The physical table's name, quoted and qualified as the shard's SQL says it. */
  public String quotedName() {
    return quoting.qualified(qualifiedName);
  }
}
