package io.shardset.model;

import java.util.Objects;

/**
 * How many of a table's shards one statement may read or change: a scatter guardrail. Over the
 * limit means more than {@code maxShards} shards, or, without a maximum, every shard of a table
 * that has more than one (a statement that nothing narrowed to some of them).
 *
 * @param mode what a statement over the limit gets
 * @param maxShards the most shards a statement may reach; 0 for "all but every one"
 * @param source who set the limit, for messages: {@code table S.T}, {@code schema S}, or
 *     {@code the connection}
 */
public record ScatterLimit(ScatterMode mode, int maxShards, String source) {
  /** No limit. */
  public static final ScatterLimit NONE = new ScatterLimit(ScatterMode.ALLOW, 0, "default");

  public ScatterLimit {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(source, "source");
    if (maxShards < 0) {
      throw new IllegalArgumentException("maxShards must not be negative: " + maxShards);
    }
  }

  /**
   * The limit of the settings {@code scatter} and {@code maxShards}, or null when neither is
   * given: a maximum alone denies, since a limit that only allows would say nothing.
   *
   * @throws IllegalArgumentException naming the expected values of an unknown mode
   */
  public static ScatterLimit of(String mode, Integer maxShards, String source) {
    if (mode == null && maxShards == null) {
      return null;
    }
    return new ScatterLimit(mode == null ? ScatterMode.DENY : ScatterMode.fromModelName(mode),
        maxShards == null ? 0 : maxShards, source);
  }

  /** Whether reaching {@code reached} of a table's {@code tableShards} shards is over it. */
  public boolean exceededBy(int reached, int tableShards) {
    if (mode == ScatterMode.ALLOW) {
      return false;
    }
    return maxShards > 0 ? reached > maxShards : tableShards > 1 && reached >= tableShards;
  }
}
