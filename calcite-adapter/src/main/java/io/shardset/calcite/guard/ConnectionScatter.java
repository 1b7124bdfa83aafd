package io.shardset.calcite.guard;

import io.shardset.model.ScatterLimit;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Properties;

/**
 * A connection's own scatter limit, from its properties {@value #MODE} and
 * {@value #MAX_SHARDS}: it replaces the model's limits for every table the connection reads
 * (a server sets it from the caller's role).
 */
public final class ConnectionScatter {
  /** The connection property naming the mode: {@code allow}, {@code warn} or {@code deny}. */
  public static final String MODE = "scatter";
  /** The connection property naming the most shards a statement may reach. */
  public static final String MAX_SHARDS = "maxShards";
  /** The connection property that says, for messages, who set the limit (a server names the
   * role); {@value #SOURCE} when absent. */
  public static final String SOURCE_PROPERTY = "scatterSource";
  /** How the limit names where it comes from when nothing else says. */
  static final String SOURCE = "the connection";

  private ConnectionScatter() {
  }

  /** The properties that give a connection this limit. */
  public static Properties properties(ScatterLimit limit) {
    final Properties properties = new Properties();
    properties.setProperty(MODE, limit.mode().modelName());
    if (limit.maxShards() > 0) {
      properties.setProperty(MAX_SHARDS, Integer.toString(limit.maxShards()));
    }
    properties.setProperty(SOURCE_PROPERTY, limit.source());
    return properties;
  }

  /**
   * The limit the properties set, or null when they set none.
   *
   * @throws IllegalArgumentException naming the property and what it expects
   */
  public static @Nullable ScatterLimit limit(@Nullable Properties properties) {
    if (properties == null) {
      return null;
    }
    final String mode = properties.getProperty(MODE);
    final String max = properties.getProperty(MAX_SHARDS);
    if (mode == null && max == null) {
      return null;
    }
    Integer maxShards = null;
    if (max != null) {
      try {
        maxShards = Integer.valueOf(max.trim());
      } catch (NumberFormatException e) {
        maxShards = -1;
      }
      if (maxShards < 1) {
        throw new IllegalArgumentException("connection property " + MAX_SHARDS
            + ": expected a positive integer, got '" + max + "'");
      }
    }
    try {
      return ScatterLimit.of(mode, maxShards, properties.getProperty(SOURCE_PROPERTY, SOURCE));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("connection property " + MODE + ": " + e.getMessage(),
          e);
    }
  }
}
