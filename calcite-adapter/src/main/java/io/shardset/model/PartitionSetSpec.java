package io.shardset.model;

import java.util.List;
import java.util.Objects;

/**
 * One partition set of a composite table's {@code partitionBy}: the partition column values it
 * takes (a list, the default, or a half-open range) and the shardspace holding its rows.
 *
 * <p>Values and bounds are the model's raw JSON values; they get the partition column's type
 * once the table's columns are known.
 *
 * @param name the set's name, unique within the table
 * @param shardspace the shardspace whose chunks hold the set's rows
 * @param values the listed values of a list set; empty for the default set and range sets
 * @param isDefault whether this list set takes every value no other set lists (NULL included)
 * @param from the inclusive lower bound of a range set, or null for minus infinity
 * @param to the exclusive upper bound of a range set, or null for plus infinity
 */
public record PartitionSetSpec(String name, String shardspace, List<Object> values,
    boolean isDefault, Object from, Object to) {
  public PartitionSetSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(shardspace, "shardspace");
    values = List.copyOf(values);
  }

  /** A set of a list-partitioned composite table. */
  public static PartitionSetSpec list(String name, String shardspace, List<Object> values,
      boolean isDefault) {
    return new PartitionSetSpec(name, shardspace, values, isDefault, null, null);
  }

  /** A set of a range-partitioned composite table. */
  public static PartitionSetSpec range(String name, String shardspace, Object from, Object to) {
    return new PartitionSetSpec(name, shardspace, List.of(), false, from, to);
  }
}
