package io.shardset.model;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The {@code partitionBy} of a composite table: the partition column, how its values map to
 * partition sets (by list or by range), and the sets, each in one shardspace.
 *
 * @param column the partition column
 * @param method {@link ShardingMethod#LIST} or {@link ShardingMethod#RANGE}
 * @param sets the partition sets, in model order
 */
public record CompositeSpec(String column, ShardingMethod method, List<PartitionSetSpec> sets) {
  public CompositeSpec {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(method, "method");
    sets = List.copyOf(sets);
    if (method != ShardingMethod.LIST && method != ShardingMethod.RANGE) {
      throw new IllegalArgumentException("a composite table partitions by list or range, not "
          + method.modelName());
    }
    if (sets.isEmpty()) {
      throw new IllegalArgumentException("a composite table needs at least one partition set");
    }
  }

  /** The shardspaces of the sets, each once, in the order sets first name them. */
  public List<String> shardspaces() {
    return List.copyOf(new LinkedHashSet<>(sets.stream().map(PartitionSetSpec::shardspace)
        .toList()));
  }
}
