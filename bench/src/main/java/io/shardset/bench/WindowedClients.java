package io.shardset.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Client threads that run statements as fast as they can for a warm-up and then a measured
 * window: each client's statements one after another, a new one each time; what the window's
 * statements took, and how many failed. w21 and w24 measure with it.
 */
final class WindowedClients {
  /** One client's open statements. */
  interface Session extends AutoCloseable {
    /** Runs the client's {@code n}-th statement and reads its rows. */
    void run(int n) throws SQLException;

    @Override void close() throws SQLException;
  }

  /** Opens a client's connection. */
  @FunctionalInterface
  interface Connector {
    Connection open() throws SQLException;
  }

  /** Opens client {@code client}'s session. */
  @FunctionalInterface
  interface Opener {
    Session open(int client) throws SQLException;
  }

  /** The statements of a window: their latencies, and how many failed. */
  record Result(long[] nanos, int failures) {
    /** The latencies' summary, the rate being that of all clients together over the
     * window. */
    Stats stats(Duration window) {
      final Stats one = Stats.of(nanos);
      return new Stats(one.count(), one.medianMillis(), one.p99Millis(),
          nanos.length / (window.toNanos() / 1e9));
    }
  }

  private WindowedClients() {
  }

  /** Runs {@code clients} threads, each with its own session, and gathers their window. */
  static Result run(int clients, Duration warmUp, Duration window, Opener opener)
      throws Exception {
    final long measureFrom = System.nanoTime() + warmUp.toNanos();
    final long end = measureFrom + window.toNanos();
    final ExecutorService executor = Executors.newFixedThreadPool(clients);
    final List<Future<long[]>> results = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      final int client = i;
      results.add(executor.submit(() -> client(opener.open(client), client, measureFrom, end)));
    }
    executor.shutdown();
    final List<Long> latencies = new ArrayList<>();
    int failures = 0;
    for (Future<long[]> result : results) {
      for (long n : result.get(10, TimeUnit.MINUTES)) {
        if (n < 0) {
          failures++;
        } else {
          latencies.add(n);
        }
      }
    }
    return new Result(latencies.stream().mapToLong(Long::longValue).toArray(), failures);
  }

  /** One client's latencies in the window, a failure as -1. */
  private static long[] client(Session session, int client, long measureFrom, long end)
      throws SQLException {
    final List<Long> nanos = new ArrayList<>();
    try (session) {
      int n = client * 1_000_003;
      for (long start = System.nanoTime(); start < end; start = System.nanoTime()) {
        long took;
        try {
          session.run(n++);
          took = System.nanoTime() - start;
        } catch (SQLException | RuntimeException e) {
          took = -1;
        }
        if (start >= measureFrom) {
          nanos.add(took);
        }
      }
    }
    return nanos.stream().mapToLong(Long::longValue).toArray();
  }

  /** Reads every value of every row, as a client that uses them does. */
  static void readAll(ResultSet rs) throws SQLException {
    try (rs) {
      final int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        for (int i = 1; i <= columns; i++) {
          rs.getObject(i);
        }
      }
    }
  }
}
