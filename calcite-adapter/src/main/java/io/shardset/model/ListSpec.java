package io.shardset.model;

import java.util.List;
import java.util.Objects;

/**
 * One entry of a list table's {@code lists}: the key values that live on a shard, or the shard
 * that takes every value no entry lists (NULL included).
 *
 * <p>Values are the model's raw JSON values (string, number or boolean); they get the shard key's
 * type once the table's columns are known.
 *
 * @param shard the shard name
 * @param values the listed values; empty for the default entry
 * @param isDefault whether this is the default entry
 */
public record ListSpec(String shard, List<Object> values, boolean isDefault) {
  public ListSpec {
    Objects.requireNonNull(shard, "shard");
    values = List.copyOf(values);
    if (isDefault != values.isEmpty()) {
      throw new IllegalArgumentException(
          "a list entry has either values or is the default entry");
    }
  }
}
