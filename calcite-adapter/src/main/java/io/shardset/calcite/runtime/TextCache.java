package io.shardset.calcite.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Shard texts filled in at execution and kept, a bounded number per prepared statement, least
 * recently used dropped first.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 *
 * @param <K> what decides the texts
 */
final class TextCache<K> {
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

  /** The texts of a key, made by {@code filler} when the key is not kept; two executions
   * that meet a new key together may both fill it, and keep the first. */
  ShardTexts get(K key, Supplier<ShardTexts> filler) {
    synchronized (kept) {
      final ShardTexts known = kept.get(key);
      if (known != null) {
        return known;
      }
    }
    final ShardTexts rendered = filler.get();
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
