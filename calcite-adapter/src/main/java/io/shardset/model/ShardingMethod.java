package io.shardset.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How a table's rows are spread over its shards. */
public enum ShardingMethod {
  /** Rows go to the shard owning the CRC-32 chunk of their key. */
  CONSISTENT_HASH("consistent-hash"),
  /** Rows go to the shard whose half-open key range holds their key. */
  RANGE("range"),
  /** Rows go to the shard listing their key value, or to the default shard. */
  LIST("list"),
  /** Every shard holds a full copy. */
  DUPLICATED("duplicated"),
  /** The partition column's value picks a shardspace by list or range; the consistent hash of
   * the key picks the shard within it. */
  COMPOSITE("composite"),
  /** Rows go to the shard a directory names for their key. */
  LOOKUP("lookup");

  private final String modelName;

  ShardingMethod(String modelName) {
    this.modelName = modelName;
  }

  /** The name of this method in a model's {@code method} field. */
  public String modelName() {
    return modelName;
  }

  /**
   * The method a model names.
   *
   * @throws IllegalArgumentException if no method has that name
   */
  public static ShardingMethod fromModelName(String name) {
    for (ShardingMethod method : values()) {
      if (method.modelName.equals(name)) {
        return method;
      }
    }
    throw new IllegalArgumentException("unknown method '" + name + "'; expected one of "
        + Arrays.stream(values()).map(ShardingMethod::modelName)
            .collect(Collectors.joining(", ")));
  }
}
