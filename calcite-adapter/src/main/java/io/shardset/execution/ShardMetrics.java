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

import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one runtime's shard work. They are on a Micrometer registry to which the
 * process adds the registries it publishes through (JMX when embedded, Prometheus text in the
 * server):
 *
 * <ul>
 *   <li>{@value #STATEMENTS}: a timer per shard and outcome ({@code ok}, {@code error},
 *       {@code timeout}, {@code canceled}) of each shard statement, from sending it to its
 *       last row, with a histogram;
 *   <li>{@value #ROWS}: the rows each shard returned;
 *   <li>{@value #REACH}: the statements (scans and pushed writes) by how many of their table's
 *       shards they reached: {@code none}, {@code one}, {@code some}, {@code all};
 *   <li>{@value #WAITING}: the statements waiting in a shard pool's queue, next to HikariCP's
 *       own pool meters ({@code hikaricp.connections.active}, {@code .idle}, {@code .pending},
 *       tagged {@code pool=shardset-<shard>}).
 * </ul>
 *
 * <p>Meters are looked up once per shard and outcome and then kept: a routed point query
 * records without building a meter id.
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

  private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
  private final ConcurrentMap<String, ShardMeters> shards = new ConcurrentHashMap<>();
  private final ConcurrentMap<Reach, Counter> reaches = new ConcurrentHashMap<>();

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
  public void publishOverJmx() {
    registry.add(new JmxMeterRegistry(new JmxConfig() {
      @Override public String domain() {
        return JMX_DOMAIN;
      }

      @Override public @Nullable String get(String key) {
        return null;
      }
    }, Clock.SYSTEM));
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
    reaches.computeIfAbsent(Reach.of(reached, total), reach -> Counter.builder(REACH)
        .description("statements by shards reached")
        .tag("reach", reach.name().toLowerCase(Locale.ROOT)).register(registry)).increment();
  }

  /** Records one shard statement. */
  void statement(String shard, long nanos, long rows, Outcome outcome) {
    final ShardMeters meters = shards.computeIfAbsent(shard, ShardMeters::new);
    meters.timers.get(outcome).record(nanos, TimeUnit.NANOSECONDS);
    if (rows > 0) {
      meters.rows.increment(rows);
    }
  }

  /** Gives a pool HikariCP's meters. */
  void bind(HikariConfig pool) {
    pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
  }

  /** A gauge of a shard's pool, held weakly as Micrometer holds gauges; {@link #remove} it
   * when the pool closes. */
  <T> Gauge gauge(String name, String shard, T source, ToDoubleFunction<T> value) {
    return Gauge.builder(name, source, value).tag("shard", shard).register(registry);
  }

  /** Takes a meter off the registry. */
  void remove(Gauge gauge) {
    registry.remove(gauge);
  }

  /** The meters of one shard. */
  private final class ShardMeters {
    final Map<Outcome, Timer> timers = new EnumMap<>(Outcome.class);
    final Counter rows;

    ShardMeters(String shard) {
      for (Outcome outcome : Outcome.values()) {
        timers.put(outcome, Timer.builder(STATEMENTS)
            .description("shard statements, from sending to the last row")
            .tag("shard", shard).tag("outcome", outcome.tag())
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofMinutes(5))
            .register(registry));
      }
      rows = Counter.builder(ROWS).description("rows the shard returned").tag("shard", shard)
          .register(registry);
    }
  }
}
