package io.shardset.execution;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one runtime's shard work. They are on a Micrometer registry to which the
 * process adds the registries it publishes through (JMX when embedded, Prometheus text in the
 * server):
 *
 * <ul>
 *   <li>{@value #STATEMENTS}: a timer per shard and outcome ({@code ok}, {@code error},
 *       {@code timeout}, {@code canceled}) of each shard statement, from executing it until its
 *       cursor closes (a failure from asking the pool for a connection), with counts under
 *       {@link #BUCKETS} for histograms;
 *   <li>{@value #ROWS}: the rows each shard returned;
 *   <li>{@value #REACH}: the shard scans by how many of their table's shards they reached:
 *       {@code none}, {@code one}, {@code some}, {@code all};
 *   <li>{@value #WAITING}: the statements waiting in the queues of a shard's pools, next to
 *       HikariCP's own pool meters ({@code hikaricp.connections.active}, {@code .idle},
 *       {@code .pending}, tagged {@code pool=shardset-<shard>});
 *   <li>{@value #DOWN}: 1 while the shard is taken as down ({@link ShardHealth}), else 0.
 * </ul>
 *
 * <p>Meters are made on first use and then kept: a routed point query records without
 * building a meter id, and a shard has timers only for the outcomes it had. Recording never
 * throws into a statement: a registry that fails is logged at debug level.
 */
public final class ShardMetrics {
  /** The timer of shard statements. */
  public static final String STATEMENTS = "shardset.shard.statements";
  /** The counter of rows the shards returned. */
  public static final String ROWS = "shardset.shard.rows";
  /** The counter of statements by reach. */
  public static final String REACH = "shardset.statements";
  /** The gauge of statements waiting for a shard's connection. */
  public static final String WAITING = "shardset.pool.waiting";
  /** Gauge: 1 while the shard is taken as down (no connection could be made), else 0. */
  public static final String DOWN = "shardset.shard.down";
  /** The JMX domain of the meters' MBeans. */
  public static final String JMX_DOMAIN = "shardset";

  /** How a shard statement ended. */
  public enum Outcome {
    OK, ERROR, TIMEOUT, CANCELED;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** How a statement that threw {@code failure} ended. */
    static Outcome of(Throwable failure, boolean stopped) {
      for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
        if (t instanceof SQLTimeoutException) {
          return TIMEOUT;
        }
        if (t instanceof CancellationException) {
          return CANCELED;
        }
      }
      return stopped ? CANCELED : ERROR;
    }
  }

  /** How many of its table's shards a statement reached. */
  public enum Reach {
    NONE, ONE, SOME, ALL;

    /** The reach of {@code reached} shards out of {@code total}. */
    public static Reach of(int reached, int total) {
      return reached == 0 ? NONE : reached == total ? ALL : reached == 1 ? ONE : SOME;
    }
  }

  /** The upper bounds of the statement timers' buckets: a few, since every shard has them. */
  public static final List<Duration> BUCKETS = List.of(Duration.ofMillis(1),
      Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5),
      Duration.ofSeconds(30));
  private static final Logger LOG = LoggerFactory.getLogger(ShardMetrics.class);

  private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
  private final ConcurrentMap<String, ShardMeters> shards = new ConcurrentHashMap<>();
  private final ConcurrentMap<Reach, Counter> reaches = new ConcurrentHashMap<>();
  /** The pool queues of each shard, which its waiting gauge adds up. */
  private final ConcurrentMap<String, List<FairPermits>> queues = new ConcurrentHashMap<>();
  /** The pools' health of each shard, which its down gauge reads. */
  private final ConcurrentMap<String, List<ShardHealth>> healths = new ConcurrentHashMap<>();
  private @Nullable JmxMeterRegistry jmx;

  /** Creates the meters of a runtime, on an empty composite registry: meters are registered
   * as they are first used, after the registries that publish them were added. */
  public ShardMetrics() {
  }

  /** The registry every meter is on; add the registries that publish them to it. */
  public CompositeMeterRegistry registry() {
    return registry;
  }

  /**
   * Publishes the meters as MBeans in the domain {@value #JMX_DOMAIN}, until {@link #close()}:
   * what an embedding application's JMX console or agent reads.
   */
  public synchronized void publishOverJmx() {
    if (jmx == null) {
      jmx = new JmxMeterRegistry(new JmxConfig() {
        @Override public String domain() {
          return JMX_DOMAIN;
        }

        @Override public @Nullable String get(String key) {
          return null;
        }
      }, Clock.SYSTEM);
      registry.add(jmx);
    }
  }

  /**
   * Stops publishing over JMX: for a process that publishes the meters otherwise (the server's
   * {@code /metrics}), since a JMX timer takes a lock on every shard statement.
   */
  public synchronized void stopPublishingOverJmx() {
    if (jmx != null) {
      registry.remove(jmx);
      jmx.close();
      jmx = null;
    }
  }

  /** Stops publishing: closes every registry the meters were published through. */
  public void close() {
    for (MeterRegistry published : List.copyOf(registry.getRegistries())) {
      registry.remove(published);
      published.close();
    }
  }

  /** Counts a statement by how many of its table's shards it reached. */
  public void reached(int reached, int total) {
    try {
      final Reach reach = Reach.of(reached, total);
      Counter counter = reaches.get(reach);
      if (counter == null) {
        counter = reaches.computeIfAbsent(reach, r -> Counter.builder(REACH)
            .description("shard scans by shards reached")
            .tag("reach", r.name().toLowerCase(Locale.ROOT)).register(registry));
      }
      counter.increment();
    } catch (RuntimeException e) {
      LOG.debug("counting a scan failed", e);
    }
  }

  /** Records one shard statement; never throws. */
  void statement(String shard, long nanos, long rows, Outcome outcome) {
    try {
      ShardMeters meters = shards.get(shard);
      if (meters == null) {
        meters = shards.computeIfAbsent(shard, ShardMeters::new);
      }
      meters.timer(outcome).record(nanos, TimeUnit.NANOSECONDS);
      if (rows > 0) {
        meters.rows.increment(rows);
      }
    } catch (RuntimeException e) {
      LOG.debug("recording a statement of shard '{}' failed", shard, e);
    }
  }

  /** Adds a pool's queue to its shard's waiting gauge, which stays while the process runs. */
  void watch(String shard, FairPermits queue) {
    queues.computeIfAbsent(shard, name -> {
      final List<FairPermits> list = new CopyOnWriteArrayList<>();
      Gauge.builder(WAITING, list, l -> l.stream().mapToInt(FairPermits::waiting).sum())
          .description("statements waiting for a connection of the shard's pools")
          .tag("shard", name).strongReference(true).register(registry);
      return list;
    }).add(queue);
  }

  /** Adds a pool's health to its shard's down gauge, which stays while the process runs. */
  void watch(String shard, ShardHealth health) {
    healths.computeIfAbsent(shard, name -> {
      final List<ShardHealth> list = new CopyOnWriteArrayList<>();
      Gauge.builder(DOWN, list, l -> l.stream().anyMatch(ShardHealth::isDown) ? 1 : 0)
          .description("1 while no connection to the shard can be made, else 0")
          .tag("shard", name).strongReference(true).register(registry);
      return list;
    }).add(health);
  }

  /** Takes a closed pool's health off its shard's gauge. */
  void forget(String shard, ShardHealth health) {
    final List<ShardHealth> list = healths.get(shard);
    if (list != null) {
      list.remove(health);
    }
  }

  /** Takes a closed pool's queue off its shard's gauge. */
  void forget(String shard, FairPermits queue) {
    final List<FairPermits> list = queues.get(shard);
    if (list != null) {
      list.remove(queue);
    }
  }

  /** Gives a pool HikariCP's meters. */
  void bind(HikariConfig pool) {
    pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
  }

  /** The meters of one shard. */
  private final class ShardMeters {
    private final String shard;
    private final ConcurrentMap<Outcome, Timer> timers = new ConcurrentHashMap<>();
    final Counter rows;

    ShardMeters(String shard) {
      this.shard = shard;
      rows = Counter.builder(ROWS).description("rows the shard returned").tag("shard", shard)
          .register(registry);
    }

    Timer timer(Outcome outcome) {
      final Timer timer = timers.get(outcome);
      return timer != null ? timer : timers.computeIfAbsent(outcome, o -> Timer.builder(STATEMENTS)
          .description("shard statements, from executing to closing the cursor")
          .tag("shard", shard).tag("outcome", o.tag())
          .serviceLevelObjectives(BUCKETS.toArray(new Duration[0]))
          .register(registry));
    }
  }
}
