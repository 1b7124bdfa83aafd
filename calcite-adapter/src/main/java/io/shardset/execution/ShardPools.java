package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One model's HikariCP pools, one per shard connection settings, shared by every connection
 * and schema of that model and closed together when the model's last connection closes (see
 * {@link ExecutionRuntime}).
 *
 * <p>All pools of a process share one housekeeping thread, which the caller owns, since a
 * model may name hundreds of shards.
 */
public final class ShardPools implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShardPools.class);

  private final ConcurrentMap<ShardConnectionSettings, PooledShardEndpoint> pools =
      new ConcurrentHashMap<>();
  private final ScheduledExecutorService housekeeping;
  private final ShardMetrics metrics;
  private volatile boolean closed;

  /**
   * Creates an empty set of pools.
   *
   * @param housekeeping runs the pools' housekeeping; the caller shuts it down
   */
  public ShardPools(ScheduledExecutorService housekeeping) {
    this(housekeeping, new ShardMetrics());
  }

  /**
   * Creates an empty set of pools that report to {@code metrics}.
   *
   * @param housekeeping runs the pools' housekeeping; the caller shuts it down
   */
  public ShardPools(ScheduledExecutorService housekeeping, ShardMetrics metrics) {
    this.housekeeping = Objects.requireNonNull(housekeeping, "housekeeping");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Returns the endpoint of the pool for these settings, creating the pool on first use.
   *
   * @throws IllegalStateException once these pools are closed
   */
  public ShardEndpoint endpoint(ShardConnectionSettings settings) {
    Objects.requireNonNull(settings, "settings");
    final PooledShardEndpoint endpoint = pools.computeIfAbsent(settings, s -> {
      if (closed) {
        throw new IllegalStateException("the pools of shard '" + s.shardName() + "' are closed");
      }
      return PooledShardEndpoint.create(s, housekeeping, metrics);
    });
    if (closed) {
      // Closed while the pool was created: close it too, rather than leak it.
      close();
      throw new IllegalStateException("the pools of shard '" + settings.shardName()
          + "' are closed");
    }
    return endpoint;
  }

  /** The number of pools open now. */
  public int size() {
    return pools.size();
  }

  /** Whether {@link #close} ran. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * Returns the number of connections currently checked out of the pool of an endpoint
   * returned by {@link #endpoint}; 0 once the pool is closed.
   */
  public static int activeConnections(ShardEndpoint endpoint) {
    return pooled(endpoint).activeConnections();
  }

  /**
   * Whether the shard of an endpoint returned by {@link #endpoint} is taken as down: its last
   * attempt to connect failed ({@link ShardHealth}).
   */
  public static boolean isDown(ShardEndpoint endpoint) {
    return pooled(endpoint).isDown();
  }

  /** The background attempts to connect to a down shard begun by an endpoint's pool. */
  public static long probes(ShardEndpoint endpoint) {
    return pooled(endpoint).probes();
  }

  /** Whether the pool of an endpoint returned by {@link #endpoint} is closed. */
  public static boolean isClosed(ShardEndpoint endpoint) {
    return pooled(endpoint).isClosed();
  }

  private static PooledShardEndpoint pooled(ShardEndpoint endpoint) {
    Objects.requireNonNull(endpoint, "endpoint");
    if (endpoint instanceof PooledShardEndpoint pooled) {
      return pooled;
    }
    throw new IllegalArgumentException(
        "endpoint of shard '" + endpoint.name() + "' is not a ShardPools endpoint");
  }

  /**
   * Closes every pool; endpoints handed out before fail from then on, and {@link #endpoint}
   * refuses to create new ones.
   */
  @Override public void close() {
    closed = true;
    for (ShardConnectionSettings settings : pools.keySet()) {
      final PooledShardEndpoint endpoint = pools.remove(settings);
      if (endpoint != null) {
        try {
          endpoint.close();
        } catch (RuntimeException e) {
          LOG.warn("closing the pool of shard '{}' failed: {}", endpoint.name(),
              endpoint.redact(e.getMessage()));
        }
      }
    }
  }
}
