package io.shardset.bench;

import io.shardset.bench.shardingsphere.ShardingSphereSystem;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * w5 in a JVM of its own: opens one system, streams every row of ORDERS through it and prints
 * a {@link ProbeResult}. {@link StreamingWorkload} starts it with a small heap, so a system
 * that holds the whole result in memory fails here and not in the benchmark's own JVM.
 *
 * <p>Arguments: {@code BACKEND DB_FOLDER ORDERS SYSTEM}, as {@link StreamingWorkload} passes
 * them. L, D and S read with auto-commit off and a fetch size of 1000, which is what PgJDBC
 * needs to stream rather than load the whole result (H2 ignores both; ShardingSphere passes
 * them on to its shard connections); N and X are used as they are.
 */
public final class StreamingProbe {
  private static final int FETCH_SIZE = 1_000;

  private StreamingProbe() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      throw new IllegalArgumentException("expected BACKEND DB_FOLDER ORDERS SYSTEM");
    }
    final BenchDatabase db = BenchDatabase.open(args[0], Path.of(args[1]),
        new BenchData(Long.parseLong(args[2])));
    final String system = args[3];
    // S's shard pools outlive its connection and must be closed, or their threads keep this
    // JVM alive.
    final ShardingSphereSystem shardingSphere =
        system.equals("S") ? db.openShardingSphere() : null;
    final List<Connection> connections = connect(db, system, shardingSphere);
    try {
      final boolean plain = List.of("L", "D", "S").contains(system);
      System.gc();
      final List<MemoryPoolMXBean> heap = new ArrayList<>();
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP) {
          pool.resetPeakUsage();
          heap.add(pool);
        }
      }
      // The first scan pays for planning and code generation in a cold JVM; the second one
      // is timed. The peak heap covers both.
      scan(connections, plain);
      final long start = System.nanoTime();
      final long[] rowsAndChecksum = scan(connections, plain);
      final double seconds = (System.nanoTime() - start) / 1e9;
      // The sum of each pool's peak: an upper bound of the heap in use at any one time.
      long peak = 0;
      for (MemoryPoolMXBean pool : heap) {
        peak += pool.getPeakUsage().getUsed();
      }
      System.out.println(new ProbeResult(rowsAndChecksum[0], rowsAndChecksum[1], seconds, peak)
          .format());
    } finally {
      try {
        Connections.closeAll(connections);
      } finally {
        if (shardingSphere != null) {
          shardingSphere.close();
        }
      }
    }
  }

  /** Streams every order through each connection in turn: the rows and their checksum. */
  private static long[] scan(List<Connection> connections, boolean plain) throws SQLException {
    long rows = 0;
    long checksum = 0;
    for (Connection connection : connections) {
      if (plain) {
        connection.setAutoCommit(false);
      }
      try (Statement statement = connection.createStatement()) {
        if (plain) {
          statement.setFetchSize(FETCH_SIZE);
        }
        try (ResultSet rs = statement.executeQuery(Workloads.SCAN)) {
          while (rs.next()) {
            rows++;
            checksum += rs.getLong(1) + rs.getLong(2) + rs.getDate(3).toLocalDate().toEpochDay()
                + rs.getString(4).length() + rs.getBigDecimal(5).unscaledValue().longValue();
          }
        }
      }
    }
    return new long[] {rows, checksum};
  }

  private static List<Connection> connect(BenchDatabase db, String system,
      ShardingSphereSystem shardingSphere) throws SQLException {
    final List<Connection> connections = new ArrayList<>();
    switch (system) {
    case "L" -> connections.add(db.unsharded().connect());
    case "D" -> {
      for (JdbcEndpoint shard : db.shards()) {
        connections.add(shard.connect());
      }
    }
    case "N" -> connections.add(db.connectUnionAll());
    case "X" -> connections.add(db.connectShardSet());
    case "S" -> connections.add(shardingSphere.connect());
    default -> throw new IllegalArgumentException("unknown system " + system);
    }
    return connections;
  }
}
