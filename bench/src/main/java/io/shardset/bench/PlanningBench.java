package io.shardset.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * w8: how long ShardSet takes to plan one point query as the shard count grows, over tiny
 * in-memory H2 shards (the data does not matter to planning, the model's size does). Opening
 * each connection is timed too: ShardSet reads every shard's metadata when it loads the
 * schema (its pools themselves connect lazily), so that cost grows with the shard count.
 */
public final class PlanningBench implements AutoCloseable {
  private final Map<Integer, Connection> connections = new LinkedHashMap<>();
  private final Map<Integer, Double> loadMillis = new LinkedHashMap<>();
  private final List<TinyShards> shards = new ArrayList<>();

  private PlanningBench() {
  }

  /** Creates the shards and opens one ShardSet connection per shard count. */
  public static PlanningBench open(List<Integer> shardCounts) throws SQLException {
    final PlanningBench bench = new PlanningBench();
    try {
      for (int count : shardCounts) {
        final TinyShards tiny = TinyShards.create("plan", count);
        bench.shards.add(tiny);
        final Properties info = new Properties();
        // One connection per pool: the benchmark plans, it never runs a query.
        info.setProperty("model", "inline:" + Models.shardSet(tiny.urls(), 1));
        final long start = System.nanoTime();
        bench.connections.put(count, DriverManager.getConnection("jdbc:calcite:", info));
        bench.loadMillis.put(count, (System.nanoTime() - start) / 1e6);
      }
      return bench;
    } catch (SQLException | RuntimeException e) {
      bench.close();
      throw e;
    }
  }

  /**
   * One operation per shard count, named {@code X@count}: prepare the point query with a
   * literal key that changes every time (so no layer can answer from a cache keyed by the
   * text), then close it.
   */
  public Map<String, Operation> operations() {
    final Map<String, Operation> result = new LinkedHashMap<>();
    connections.forEach((count, connection) -> result.put(name(count),
        iteration -> prepareAndClose(connection, iteration)));
    return result;
  }

  /**
   * The planning times of {@link #operations()} as points, with the load times; a shard count
   * whose outcome is a note (it failed) has no planning time.
   */
  public List<PlanningPoint> points(Map<String, Outcome> outcomes) {
    final List<PlanningPoint> result = new ArrayList<>();
    loadMillis.forEach((count, load) -> result.add(new PlanningPoint("X", count, load,
        Optional.ofNullable(outcomes.get(name(count))).map(Outcome::stats), Duration.ZERO)));
    return result;
  }

  /** Prepares the point query with the iteration's key as a literal; returns 0. */
  static long prepareAndClose(Connection connection, int iteration) throws SQLException {
    final String sql = Workloads.POINT.replace("?", Long.toString(1 + iteration));
    try (PreparedStatement ignored = connection.prepareStatement(sql)) {
      return 0;
    }
  }

  private static String name(int count) {
    return "X@" + count;
  }

  @Override public void close() throws SQLException {
    final List<Connection> all = new ArrayList<>(connections.values());
    shards.forEach(tiny -> all.addAll(tiny.keepers()));
    Connections.closeAll(all);
  }
}
