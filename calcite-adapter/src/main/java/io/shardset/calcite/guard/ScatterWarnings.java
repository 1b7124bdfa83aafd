package io.shardset.calcite.guard;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

/**
 * The statement shapes a table's scatter warning was logged for, so that each is logged once
 * however often it runs, and however often it is planned again (a {@code jdbc:calcite:}
 * connection plans every execution). A shape is the SQL its shards are sent. Bounded: past
 * {@value #MAX_SHAPES} shapes the oldest are forgotten, and warned of again.
 */
public final class ScatterWarnings {
  private static final int MAX_SHAPES = 10_000;

  private final Cache<String, Boolean> logged =
      CacheBuilder.newBuilder().maximumSize(MAX_SHAPES).build();

  /** Whether {@code shape} is seen for the first time (and is now remembered). */
  boolean first(String shape) {
    return logged.asMap().putIfAbsent(shape, Boolean.TRUE) == null;
  }
}
