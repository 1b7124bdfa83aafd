package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardException;

import org.apache.calcite.sql.SqlDialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Connections to the shards while a schema reads their metadata: opened on first use, one
 * per shard, all closed at the end. A shard that cannot be reached is tried once: its failure
 * is remembered, so that a schema of many tables does not wait for it once per table.
 */
final class ShardConnections implements AutoCloseable {
  private final Map<String, ShardEndpoint> endpoints;
  private final Dialects dialects;
  private final Map<String, Connection> open = new HashMap<>();
  private final Map<String, ShardException> failed = new HashMap<>();

  ShardConnections(Map<String, ShardEndpoint> endpoints, Dialects dialects) {
    this.endpoints = endpoints;
    this.dialects = Objects.requireNonNull(dialects, "dialects");
  }

  /** The connection to a shard. */
  Connection get(String shard) {
    final ShardException failure = failed.get(shard);
    if (failure != null) {
      throw failure;
    }
    return open.computeIfAbsent(shard, name -> {
      final ShardEndpoint endpoint = Objects.requireNonNull(endpoints.get(name), name);
      try {
        return endpoint.connect();
      } catch (SQLException e) {
        final ShardException unreachable =
            new ShardException(name, endpoint.redact(String.valueOf(e.getMessage())), e);
        failed.put(name, unreachable);
        throw unreachable;
      }
    });
  }

  /** The shard's SQL dialect, shared with every shard of the same kind of database. */
  SqlDialect dialect(String shard) {
    try {
      return dialects.of(get(shard).getMetaData());
    } catch (SQLException e) {
      throw new ShardException(shard,
          endpoints.get(shard).redact(String.valueOf(e.getMessage())), e);
    }
  }

  @Override public void close() {
    for (Connection connection : open.values()) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // Returning a connection to the pool; nothing more to do.
      }
    }
    open.clear();
  }
}
