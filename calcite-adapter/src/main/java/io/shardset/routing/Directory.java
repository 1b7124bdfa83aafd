package io.shardset.routing;

import java.util.Optional;

/**
 * Where each key of a lookup-sharded table lives: a directory of key values and shard names,
 * kept outside the shards (a table in some database).
 *
 * <p>Implementations must be safe for use from many threads.
 */
public interface Directory {
  /**
   * The name of the shard holding the rows of a key; empty when the directory has no entry
   * for it.
   *
   * @param key a non-null key value, normalized with the lookup key's {@link KeyType}
   * @throws IllegalStateException if the directory cannot be read
   */
  Optional<String> shardOf(Comparable<?> key);

  /**
   * Forgets what a cache remembers of a key's entry, so that the next lookup reads the
   * directory itself; a directory without a cache does nothing.
   */
  default void invalidate(Comparable<?> key) {
  }

  /** Forgets every cached entry; a directory without a cache does nothing. */
  default void invalidateAll() {
  }
}
