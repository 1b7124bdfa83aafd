package io.shardset.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * w8: how long ShardSet takes to plan one point query as the shard count grows, over tiny
 * in-memory H2 shards (the data does not matter to planning, the model's size does).
 */
public final class PlanningBench implements AutoCloseable {
  private final Map<String, Connection> connections = new LinkedHashMap<>();
  private final List<Connection> keepAlive = new ArrayList<>();

  private PlanningBench() {
  }

  /** Creates the shards and opens one ShardSet connection per shard count. */
  public static PlanningBench open(List<Integer> shardCounts) throws SQLException {
    final PlanningBench bench = new PlanningBench();
    try {
      for (int count : shardCounts) {
        final List<String> urls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          final String url = "jdbc:h2:mem:plan" + count + "_" + i;
          // An open connection keeps an in-memory database alive between uses.
          final Connection keeper = DriverManager.getConnection(url, "sa", "");
          bench.keepAlive.add(keeper);
          try (Statement s = keeper.createStatement()) {
            for (String ddl : BenchData.DDL) {
              s.execute(ddl);
            }
          }
          urls.add(url);
        }
        final Properties info = new Properties();
        info.setProperty("model", "inline:" + Models.shardSet(urls, 1));
        bench.connections.put("X@" + count, DriverManager.getConnection("jdbc:calcite:", info));
      }
      return bench;
    } catch (SQLException | RuntimeException e) {
      bench.close();
      throw e;
    }
  }

  /**
   * One operation per shard count: prepare the point query with a literal key that changes
   * every time (so no layer can answer from a cache keyed by the text), then close it.
   */
  public Map<String, Operation> operations() {
    final Map<String, Operation> result = new LinkedHashMap<>();
    connections.forEach((name, connection) -> result.put(name, iteration -> {
      final String sql = Workloads.POINT.replace("?", Long.toString(1 + iteration));
      try (PreparedStatement ignored = connection.prepareStatement(sql)) {
        return 0;
      }
    }));
    return result;
  }

  @Override public void close() throws SQLException {
    final List<Connection> all = new ArrayList<>(connections.values());
    all.addAll(keepAlive);
    Connections.closeAll(all);
  }
}
