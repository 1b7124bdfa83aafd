package io.shardset.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.LongToIntFunction;

/**
 * D with many clients (w17): a fixed pool of connections per shard, each with the point query
 * prepared on it, as an application that routes by hand would keep them. A query borrows a
 * connection of its key's shard and gives it back; the pools are as large as X's and S's, so
 * that no system gets more connections than another.
 */
final class DirectPools implements AutoCloseable {
  /** One pooled connection and its prepared statement. */
  private record Pooled(Connection connection, PreparedStatement statement) {
  }

  private final List<BlockingQueue<Pooled>> shards;
  private final List<Pooled> all;
  private final LongToIntFunction shardOf;

  private DirectPools(List<BlockingQueue<Pooled>> shards, List<Pooled> all,
      LongToIntFunction shardOf) {
    this.shards = shards;
    this.all = all;
    this.shardOf = shardOf;
  }

  /** Opens {@code size} connections to each shard and prepares {@code sql} on each. */
  static DirectPools open(List<JdbcEndpoint> endpoints, int size, String sql,
      LongToIntFunction shardOf) throws SQLException {
    final List<BlockingQueue<Pooled>> shards = new ArrayList<>();
    final List<Pooled> all = new ArrayList<>();
    final DirectPools pools = new DirectPools(shards, all, shardOf);
    try {
      for (JdbcEndpoint endpoint : endpoints) {
        final BlockingQueue<Pooled> queue = new ArrayBlockingQueue<>(size);
        for (int i = 0; i < size; i++) {
          final Connection c = endpoint.connect();
          final Pooled pooled = new Pooled(c, c.prepareStatement(sql));
          all.add(pooled);
          queue.add(pooled);
        }
        shards.add(queue);
      }
      return pools;
    } catch (SQLException | RuntimeException e) {
      pools.close();
      throw e;
    }
  }

  /** Runs the query with {@code key} on its shard and reads it with {@code reader}. */
  long query(long key, Workloads.RowsReader reader)
      throws SQLException, InterruptedException {
    final BlockingQueue<Pooled> queue = shards.get(shardOf.applyAsInt(key));
    final Pooled pooled = queue.take();
    try {
      pooled.statement().setLong(1, key);
      try (ResultSet rs = pooled.statement().executeQuery()) {
        return reader.read(rs);
      }
    } finally {
      queue.add(pooled);
    }
  }

  @Override public void close() throws SQLException {
    Connections.closeAll(all.stream().map(Pooled::connection).toList());
  }
}
