package io.shardset.model;

import java.util.Objects;

/**
 * One entry of a range table's {@code ranges}: the half-open key range {@code [from, to)} that
 * lives on a shard.
 *
 * <p>Bounds are the model's raw JSON values (a number or a string); they get the shard key's type
 * once the table's columns are known.
 *
 * @param shard the shard name
 * @param from the inclusive lower bound, or null for minus infinity
 * @param to the exclusive upper bound, or null for plus infinity
 */
public record RangeSpec(String shard, Object from, Object to) {
  public RangeSpec {
    Objects.requireNonNull(shard, "shard");
  }
}
