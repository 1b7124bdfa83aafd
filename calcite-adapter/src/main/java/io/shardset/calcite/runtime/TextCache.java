package io.shardset.calcite.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Shard texts rendered at execution and kept, a bounded number per prepared statement, least
 * recently used dropped first.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 *
 * @param <K> what decides the texts
 */
final class TextCache<K> {
  /**
   * Held while rendering, by every instance: rendering uses the objects of the planning that
   * made the query (its cluster and metadata), which the scans of one plan share and which
   * are not made for concurrent use. It is rare: once per key met.
   */
  private static final Object RENDERING = new Object();

  // Guarded by itself.
  private final Map<K, ShardTexts> kept;

  /** Creates a cache that keeps at most {@code limit} keys' texts. */
  TextCache(int limit) {
    this.kept = new LinkedHashMap<>(16, 0.75f, true) {
      @Override protected boolean removeEldestEntry(Map.Entry<K, ShardTexts> eldest) {
        return size() > limit;
      }
    };
  }

  /** The texts of a key, rendered by {@code renderer} the first time it is met. */
  ShardTexts get(K key, Supplier<ShardTexts> renderer) {
    synchronized (kept) {
      final ShardTexts known = kept.get(key);
      if (known != null) {
        return known;
      }
    }
    final ShardTexts rendered;
    synchronized (RENDERING) {
      rendered = renderer.get();
    }
    synchronized (kept) {
      final ShardTexts raced = kept.putIfAbsent(key, rendered);
      return raced != null ? raced : rendered;
    }
  }

  /** How many keys' texts are kept now. */
  int size() {
    synchronized (kept) {
      return kept.size();
    }
  }
}
