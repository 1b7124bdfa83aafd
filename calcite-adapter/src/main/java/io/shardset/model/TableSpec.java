package io.shardset.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One logical table of a model, with its shards resolved.
 *
 * @param name the logical name users query
 * @param physicalName the table's name on every shard (matched exactly, else ignoring case)
 * @param method how rows are spread over the shards
 * @param shardKey the shard key columns; empty for a duplicated table
 * @param shards the shards holding the table, in model order; never empty
 * @param shardspace for a consistent-hash table, the shardspace whose chunk layout it shares;
 *     for other tables, the model's {@code shardspace} field, or null
 * @param ranges the ranges of a range table; empty for other methods
 * @param lists the lists of a list table; empty for other methods
 * @param partitionBy the partitioning of a composite table; null for other methods
 * @param directory the directory of a lookup table; null for other methods
 * @param subpartitions how each shard splits its rows into subpartition tables, or null when
 *     each shard holds the table as one table
 * @param references the relationships to other tables the model declares; often none
 */
public record TableSpec(String name, String physicalName, ShardingMethod method,
    List<String> shardKey, List<String> shards, String shardspace, List<RangeSpec> ranges,
    List<ListSpec> lists, CompositeSpec partitionBy, DirectorySpec directory,
    SubpartitionSpec subpartitions, List<ReferenceSpec> references) {
  public TableSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(physicalName, "physicalName");
    Objects.requireNonNull(method, "method");
    shardKey = List.copyOf(shardKey);
    shards = List.copyOf(shards);
    ranges = List.copyOf(ranges);
    lists = List.copyOf(lists);
    references = List.copyOf(references);
    if (shards.isEmpty()) {
      throw new IllegalArgumentException("table " + name + " has no shards");
    }
    if (method == ShardingMethod.CONSISTENT_HASH) {
      Objects.requireNonNull(shardspace, "shardspace");
    }
    if ((method == ShardingMethod.COMPOSITE) != (partitionBy != null)
        || (method == ShardingMethod.LOOKUP) != (directory != null)) {
      throw new IllegalArgumentException("table " + name + ": only composite tables have"
          + " partitionBy, and only lookup tables a directory");
    }
    if (subpartitions != null && method == ShardingMethod.DUPLICATED) {
      throw new IllegalArgumentException("duplicated table " + name + " has subpartitions");
    }
  }

  /** A table that declares no references. */
  public TableSpec(String name, String physicalName, ShardingMethod method,
      List<String> shardKey, List<String> shards, String shardspace, List<RangeSpec> ranges,
      List<ListSpec> lists, CompositeSpec partitionBy, DirectorySpec directory,
      SubpartitionSpec subpartitions) {
    this(name, physicalName, method, shardKey, shards, shardspace, ranges, lists, partitionBy,
        directory, subpartitions, List.of());
  }

  /** A table of a method other than composite and lookup, without subpartitions. */
  public TableSpec(String name, String physicalName, ShardingMethod method,
      List<String> shardKey, List<String> shards, String shardspace, List<RangeSpec> ranges,
      List<ListSpec> lists) {
    this(name, physicalName, method, shardKey, shards, shardspace, ranges, lists, null, null,
        null);
  }

  /** Whether each shard splits the table's rows into subpartition tables. */
  public boolean isSubpartitioned() {
    return subpartitions != null;
  }

  /**
   * The shardspaces whose chunk maps place the table's rows by hash: a consistent-hash table's
   * shardspace, a composite table's partition sets' shardspaces; none for other methods.
   */
  public List<String> hashedShardspaces() {
    return switch (method) {
    case CONSISTENT_HASH -> List.of(shardspace);
    case COMPOSITE -> partitionBy.shardspaces();
    default -> List.of();
    };
  }

  /**
   * The columns the table's router takes, in order: a composite table's partition column and
   * then its shard key; for other tables, the shard key.
   */
  public List<String> routingKey() {
    if (partitionBy == null) {
      return shardKey;
    }
    List<String> key = new ArrayList<>(List.of(partitionBy.column()));
    key.addAll(shardKey);
    return List.copyOf(key);
  }
}
