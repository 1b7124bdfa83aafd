package io.shardset.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What happens to a statement that reads a table on more shards than its limit allows. */
public enum ScatterMode {
  /** It runs; the default. */
  ALLOW,
  /** It runs, and the first execution of each statement shape logs a warning. */
  WARN,
  /** It fails before any shard is reached. */
  DENY;

  /** The value's name in a model and in connection properties. */
  public String modelName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The mode a model or a connection property names.
   *
   * @throws IllegalArgumentException naming the expected values if there is none
   */
  public static ScatterMode fromModelName(String name) {
    for (ScatterMode mode : values()) {
      if (mode.modelName().equals(name)) {
        return mode;
      }
    }
    throw new IllegalArgumentException("unknown value '" + name + "'; expected one of "
        + Arrays.stream(values()).map(ScatterMode::modelName).collect(Collectors.joining(", ")));
  }
}
