package io.shardset.topology;

import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardException;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connections to the shards while a schema reads their metadata: opened on first use, one
 * per shard, all closed at the end. A shard that cannot be reached is tried once: its failure
 * is remembered, so that a schema of many tables does not wait for it once per table.
 *
 * <p>Safe for threads that each read shards of their own (as {@code ShardSetRuntime}'s
 * parallel reads do); two threads asking for the same shard at once may both connect.
 */
final class ShardConnections implements AutoCloseable {
  private final Map<String, ShardEndpoint> endpoints;
  private final Map<String, Connection> open = new ConcurrentHashMap<>();
  private final Map<String, ShardException> failed = new ConcurrentHashMap<>();

  ShardConnections(Map<String, ShardEndpoint> endpoints) {
    this.endpoints = endpoints;
  }

  /** The connection to a shard.
   *
   * @throws ShardException if the shard cannot be reached */
  Connection get(String shard) {
    final ShardException failure = failed.get(shard);
    if (failure != null) {
      throw failure;
    }
    final Connection known = open.get(shard);
    if (known != null) {
      return known;
    }
    // Not computeIfAbsent: connecting can take the shard's connectTimeout, and would block
    // every other shard whose name shares the map's bin meanwhile.
    final ShardEndpoint endpoint = Objects.requireNonNull(endpoints.get(shard), shard);
    final Connection connection;
    try {
      connection = endpoint.connect();
    } catch (SQLException e) {
      final ShardException unreachable =
          new ShardException(shard, endpoint.redact(String.valueOf(e.getMessage())), e);
      failed.put(shard, unreachable);
      throw unreachable;
    }
    final Connection raced = open.putIfAbsent(shard, connection);
    if (raced != null) {
      closeQuietly(connection);
      return raced;
    }
    return connection;
  }

  /** Turns a failure to read a shard's metadata into the shard's failure, its secrets
   * removed. */
  ShardException failure(String shard, SQLException e) {
    return new ShardException(shard,
        endpoints.get(shard).redact(String.valueOf(e.getMessage())), e);
  }

  @Override public void close() {
    open.values().forEach(ShardConnections::closeQuietly);
    open.clear();
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Returning a connection to the pool; nothing more to do.
    }
  }
}
