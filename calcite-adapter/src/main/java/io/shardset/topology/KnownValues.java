package io.shardset.topology;

import io.shardset.execution.ShardException;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The last values read from shards, for use while a shard cannot be reached: a successful
 * read always replaces the value, so a shard that changes is seen as it is now whenever it
 * can be reached. Thread-safe.
 *
 * @param <K> what identifies a value (a shard, or a table on a shard)
 * @param <V> the value read
 */
public final class KnownValues<K, V> {
  /** Reads a value from a shard. */
  @FunctionalInterface
  public interface Read<V> {
    V read() throws SQLException;
  }

  private final Map<K, V> values = new ConcurrentHashMap<>();

  /**
   * Reads a value and remembers it; when the shard cannot be reached, the one read last.
   *
   * @param recalled told why the shard could not be read when the value read last is used
   * @param unknown the failure to throw when the shard cannot be read and nothing was read
   *     before
   */
  public V readOrRecall(K key, Read<V> read, Consumer<Exception> recalled,
      Function<Exception, ShardException> unknown) {
    try {
      final V value = read.read();
      values.put(key, value);
      return value;
    } catch (ShardException | SQLException e) {
      final V known = values.get(key);
      if (known == null) {
        throw unknown.apply(e);
      }
      recalled.accept(e);
      return known;
    }
  }
}
