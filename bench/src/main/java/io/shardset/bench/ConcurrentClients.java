package io.shardset.bench;

import io.shardset.bench.shardingsphere.ShardingSphereSystem;
import io.shardset.calcite.ShardSchema;
import io.shardset.routing.ShardRouter;

import org.apache.calcite.jdbc.CalciteConnection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongToIntFunction;

/**
 * w17: many clients at once. 1, 8 and 32 client threads each run the w1 point query
 * (prepared, a new shard key each time) as fast as they can, on D, X and S in turn; each
 * system first runs {@link #JIT_WARM_UP_QUERIES} queries on one client; then each
 * system and client count gets a warm-up period and then a measured window, in which the
 * queries answered give the throughput, their latencies the median and p99, and the process's
 * CPU time over the window divided by those queries the CPU per query. X's clients each have
 * their own {@code jdbc:shardset:} connection (the connections share the model's pools of
 * 8 per shard); S's take a logical connection of one data source (pools of 8 per shard) for
 * each query; D's share {@link DirectPools} of 8 connections per shard.
 */
public final class ConcurrentClients {
  /** The client counts measured. */
  public static final List<Integer> CLIENTS = List.of(1, 8, 32);
  /** The target: X's throughput at 32 clients at least this share of D's. */
  public static final double TARGET_SHARE_OF_D = 0.9;
  /** Queries each system runs on one client before its first measured point, so that the
   * JIT has compiled its code: X's first thousands of queries run in part interpreted and
   * their compilation takes CPU time (on this machine 200 to 280 µs of CPU per query over
   * the first 20,000, 30 µs after). A period of the clients' own warm-up follows at each
   * client count. */
  static final int JIT_WARM_UP_QUERIES = 30_000;
  /** Connections per shard of D's pools, as X's model and S's configuration have. */
  private static final int POOL = 8;
  /** The clients' phases: warming up (not recorded), measuring, stopped. */
  private static final int WARMING = 0;
  private static final int MEASURING = 1;
  private static final int STOPPED = 2;

  /** One system at one client count. */
  public record Point(String system, int clients, double queriesPerSecond,
      double cpuMicrosPerQuery, Stats latency, String note) {
  }

  /** A client: one thread's way to run the point query. */
  private interface Client extends AutoCloseable {
    long query(long key) throws Exception;

    @Override void close() throws SQLException;
  }

  /** Opens a client of a system. */
  @FunctionalInterface
  private interface Clients {
    Client open() throws SQLException;
  }

  private final BenchDatabase db;
  private final BenchData data;
  private final Duration warmup;
  private final Duration window;

  public ConcurrentClients(BenchDatabase db, Duration warmup, Duration window) {
    this.db = Objects.requireNonNull(db, "db");
    this.data = db.data();
    this.warmup = Objects.requireNonNull(warmup, "warmup");
    this.window = Objects.requireNonNull(window, "window");
  }

  /** Measures every system at every client count. */
  public List<Point> measure() throws Exception {
    final List<Point> points = new ArrayList<>();
    try (Connection routing = db.connectShardSet();
         ShardingSphereSystem shardingSphere = db.openShardingSphere();
         DirectPools direct = DirectPools.open(db.shards(), POOL, Workloads.POINT,
             shardOf(routing))) {
      final Map<String, Clients> systems = new LinkedHashMap<>();
      systems.put("D", () -> directClient(direct));
      systems.put("X", () -> preparedClient(db.connectShardSet()));
      systems.put("S", () -> perQueryClient(shardingSphere));
      for (Map.Entry<String, Clients> system : systems.entrySet()) {
        System.out.println("  w17 " + system.getKey() + ": " + JIT_WARM_UP_QUERIES
            + " queries on one client to warm up");
        warmUp(system.getValue());
      }
      for (int round = 0; round < CLIENTS.size(); round++) {
        final int clients = CLIENTS.get(round);
        final List<String> names = new ArrayList<>(systems.keySet());
        // Rotate who goes first, as the harness does, so no system always follows another.
        for (int turn = 0; turn < names.size(); turn++) {
          final String name = names.get((turn + round) % names.size());
          System.out.println("  w17 " + name + " with " + clients + " clients");
          points.add(run(name, clients, systems.get(name)));
        }
      }
    }
    return points;
  }

  /**
   * X's and D's client CPU per query on one client each, in interleaved rounds (see {@link
   * PointQueryCpu}), after the same warm-up as {@link #measure()}.
   */
  public List<PointQueryCpu.Point> cpuPerQuery(int rounds, int perRound) throws Exception {
    try (Connection routing = db.connectShardSet();
         DirectPools direct = DirectPools.open(db.shards(), POOL, Workloads.POINT,
             shardOf(routing));
         Client d = directClient(direct);
         Client x = preparedClient(db.connectShardSet())) {
      final long expected = expected(data.customerKey(0));
      for (Client client : List.of(d, x)) {
        if (client.query(data.customerKey(0)) != expected) {
          throw new IllegalStateException("w17: a system's answer differs from L's");
        }
        warmUp(client);
      }
      final Map<String, PointQueryCpu.Query> systems = new LinkedHashMap<>();
      systems.put("D", d::query);
      systems.put("X", x::query);
      return new PointQueryCpu(systems, rounds, perRound).measure(
          n -> data.customerKey((int) (n % Integer.MAX_VALUE)));
    }
  }

  private static LongToIntFunction shardOf(Connection shardSet)
      throws SQLException {
    final ShardSchema schema = shardSet.unwrap(CalciteConnection.class).getRootSchema()
        .subSchemas().get(Models.SCHEMA).unwrap(ShardSchema.class);
    final ShardRouter router = Objects.requireNonNull(
        schema.table("ORDERS").router(), "router of ORDERS");
    return key -> router.shardOf(List.of(key)).orElseThrow();
  }

  private static Client directClient(DirectPools pools) {
    return new Client() {
      @Override public long query(long key) throws Exception {
        return pools.query(key, Workloads::readOrders);
      }

      @Override public void close() {
        // The pools are the workload's, closed once at its end.
      }
    };
  }

  private static Client preparedClient(Connection connection) throws SQLException {
    final PreparedStatement statement;
    try {
      statement = connection.prepareStatement(Workloads.POINT);
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
    return new Client() {
      @Override public long query(long key) throws SQLException {
        statement.setLong(1, key);
        try (ResultSet rs = statement.executeQuery()) {
          return Workloads.readOrders(rs);
        }
      }

      @Override public void close() throws SQLException {
        connection.close();
      }
    };
  }

  /**
   * An S client that takes a logical connection for each query and closes it after: a logical
   * connection of ShardingSphere keeps each shard connection it has used until it is closed,
   * so 32 clients holding theirs would need 32 connections per shard from pools of 8, and wait
   * for them until the pool's time-out.
   */
  private static Client perQueryClient(ShardingSphereSystem system) {
    return new Client() {
      @Override public long query(long key) throws SQLException {
        try (Connection c = system.connect();
             PreparedStatement statement = c.prepareStatement(Workloads.POINT)) {
          statement.setLong(1, key);
          try (ResultSet rs = statement.executeQuery()) {
            return Workloads.readOrders(rs);
          }
        }
      }

      @Override public void close() {
        // Each query closes its own connection.
      }
    };
  }

  /** The latencies of one client thread in the measured window. */
  private static final class Recorder {
    private long[] nanos = new long[1024];
    private int count;

    void add(long value) {
      if (count == nanos.length) {
        nanos = Arrays.copyOf(nanos, count * 2);
      }
      nanos[count++] = value;
    }
  }

  private Point run(String system, int clients, Clients opener) throws Exception {
    final List<Client> open = new ArrayList<>();
    try {
      for (int i = 0; i < clients; i++) {
        open.add(opener.open());
      }
      // The systems must agree before they are timed, as in every other workload.
      final long expected = expected(data.customerKey(0));
      final long answer = open.get(0).query(data.customerKey(0));
      if (answer != expected) {
        return failed(system, clients, "wrong answer: checksum " + answer + " but L answered "
            + expected);
      }
      return timed(system, clients, open);
    } catch (Exception e) {
      return failed(system, clients, "failed: " + e.getMessage());
    } finally {
      final List<SQLException> failures = new ArrayList<>();
      for (Client client : open) {
        try {
          client.close();
        } catch (SQLException e) {
          failures.add(e);
        }
      }
      if (!failures.isEmpty()) {
        System.out.println("  w17 " + system + ": closing a client failed: "
            + failures.get(0).getMessage());
      }
    }
  }

  /** Runs {@link #JIT_WARM_UP_QUERIES} queries on one client of a system, unrecorded. */
  private void warmUp(Clients opener) throws Exception {
    try (Client client = opener.open()) {
      warmUp(client);
    }
  }

  /** Runs {@link #JIT_WARM_UP_QUERIES} queries on {@code client}, unrecorded. */
  private void warmUp(Client client) throws Exception {
    for (int n = 0; n < JIT_WARM_UP_QUERIES; n++) {
      client.query(data.customerKey(n));
    }
  }

  /** L's checksum of the point query for {@code key}. */
  private long expected(long key) throws SQLException {
    try (Connection c = db.unsharded().connect();
         PreparedStatement s = c.prepareStatement(Workloads.POINT)) {
      s.setLong(1, key);
      try (ResultSet rs = s.executeQuery()) {
        return Workloads.readOrders(rs);
      }
    }
  }

  private static Point failed(String system, int clients, String note) {
    return new Point(system, clients, Double.NaN, Double.NaN, null, note);
  }

  private Point timed(String system, int clients, List<Client> open) throws Exception {
    final Recorder[] recorders = new Recorder[clients];
    final Thread[] threads = new Thread[clients];
    final AtomicReference<Exception> failure = new AtomicReference<>();
    final long[] bounds = new long[2];
    // Set by this thread only; the clients read it before each query.
    final AtomicInteger phase = new AtomicInteger(WARMING);
    for (int t = 0; t < clients; t++) {
      final int thread = t;
      final Client client = open.get(t);
      final Recorder recorder = new Recorder();
      recorders[t] = recorder;
      threads[t] = new Thread(() -> {
        int n = 0;
        try {
          for (int p = phase.get(); p != STOPPED; p = phase.get()) {
            final long key = data.customerKey(thread * 10_000_000 + n++);
            final long start = System.nanoTime();
            client.query(key);
            if (p == MEASURING) {
              recorder.add(System.nanoTime() - start);
            }
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, "w17-client-" + t);
      threads[t].start();
    }
    Thread.sleep(warmup.toMillis());
    final long cpuStart = CpuTime.processNanos();
    bounds[0] = System.nanoTime();
    phase.set(MEASURING);
    Thread.sleep(window.toMillis());
    phase.set(STOPPED);
    bounds[1] = System.nanoTime();
    final long cpuEnd = CpuTime.processNanos();
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    long queries = 0;
    final List<long[]> all = new ArrayList<>();
    for (Recorder r : recorders) {
      queries += r.count;
      all.add(Arrays.copyOf(r.nanos, r.count));
    }
    if (queries == 0) {
      return failed(system, clients, "no query answered in the window");
    }
    final long[] latencies = all.stream().flatMapToLong(Arrays::stream).toArray();
    return new Point(system, clients, queries / ((bounds[1] - bounds[0]) / 1e9),
        CpuTime.microsPerQuery(cpuStart, cpuEnd, queries), Stats.of(latencies), null);
  }

  /** The report's table: a row per client count and system. */
  public static ResultTable table(String backend, List<Point> points, Duration window) {
    final List<List<String>> rows = new ArrayList<>();
    for (Point p : points) {
      rows.add(p.note() != null
          ? List.of(p.system(), Integer.toString(p.clients()), p.note(), "", "", "")
          : List.of(p.system(), Integer.toString(p.clients()),
              String.format(Locale.ROOT, "%,.0f", p.queriesPerSecond()),
              Report.millis(p.latency().medianMillis()), Report.millis(p.latency().p99Millis()),
              String.format(Locale.ROOT, "%.0f", p.cpuMicrosPerQuery())));
    }
    return new ResultTable("w17 concurrent clients, routed point query (" + backend + ")",
        "Each client a thread running the w1 query, prepared, a new key each time, for "
        + window.toSeconds() + " s after a warm-up; queries/s of all clients together; CPU is"
        + " this JVM's process CPU time over the window (every thread, JIT and GC included)"
        + " per query answered; the shards' own CPU is not in it.",
        List.of("system", "clients", "queries/s", "median ms", "p99 ms", "CPU µs/query"), rows);
  }

  /** The target line: X's throughput at the most clients against D's. */
  public static String target(String backend, List<Point> points) {
    final int most = CLIENTS.get(CLIENTS.size() - 1);
    final String what = "w17 " + most + " clients (" + backend + "): X's throughput / D's";
    final Point x = at(points, "X", most);
    final Point d = at(points, "D", most);
    if (x == null || d == null || x.note() != null || d.note() != null) {
      return TargetCheck.unchecked(what, "X or D not measured");
    }
    return TargetCheck.atLeast(String.format(Locale.ROOT, "%s = %,.0f / %,.0f", what,
        x.queriesPerSecond(), d.queriesPerSecond()), x.queriesPerSecond() / d.queriesPerSecond(),
        TARGET_SHARE_OF_D, "");
  }

  private static Point at(List<Point> points, String system, int clients) {
    return points.stream().filter(p -> p.system().equals(system) && p.clients() == clients)
        .findFirst().orElse(null);
  }
}
