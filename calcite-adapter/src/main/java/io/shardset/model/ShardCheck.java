package io.shardset.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * When a connection checks that the shards hold the model's tables as the model says: the
 * schema setting {@code checkShards}.
 */
public enum ShardCheck {
  /**
   * Every shard's metadata is read when a connection opens (several shards at a time), and a
   * shard that disagrees fails the opening: the contract's default.
   */
  AT_OPEN("atOpen"),
  /**
   * Opening reads one shard of each kind of database per table and takes the other shards of
   * that kind to be alike; each other shard is checked against what was read the first time a
   * statement connects to it, and a shard that disagrees fails that statement, before anything
   * is sent to it. For models of hundreds of shards, where reading them all takes a second.
   */
  ON_FIRST_USE("onFirstUse");

  private final String modelName;

  ShardCheck(String modelName) {
    this.modelName = modelName;
  }

  /** The value's name in a model. */
  public String modelName() {
    return modelName;
  }

  /**
   * The setting a model names.
   *
   * @throws IllegalArgumentException naming the expected values if there is none
   */
  public static ShardCheck fromModelName(String name) {
    for (ShardCheck check : values()) {
      if (check.modelName.equals(name)) {
        return check;
      }
    }
    throw new IllegalArgumentException("unknown value '" + name + "'; expected one of "
        + Arrays.stream(values()).map(ShardCheck::modelName).collect(Collectors.joining(", ")));
  }
}
