package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Registry of one process-wide HikariCP pool per shard, shared by every connection and schema
 * that names the same shard settings, and closed at JVM shutdown.
 *
 * <p>The registry is static because Calcite calls a schema factory once per connection and never
 * closes schemas: pools owned by schemas would multiply and leak. All pools share one daemon
 * housekeeping thread, since a model may name hundreds of shards.
 */
public final class ShardPools {
  private static final Logger LOG = LoggerFactory.getLogger(ShardPools.class);

  private static final ConcurrentMap<ShardConnectionSettings, PooledShardEndpoint> POOLS =
      new ConcurrentHashMap<>();

  private static final ScheduledExecutorService HOUSEKEEPING = createHousekeeping();

  static {
    Runtime.getRuntime().addShutdownHook(
        new Thread(ShardPools::closeAll, "shardset-pools-shutdown"));
  }

  private ShardPools() {
  }

  /** Returns the endpoint of the pool for these settings, creating the pool on first use. */
  public static ShardEndpoint endpoint(ShardConnectionSettings settings) {
    Objects.requireNonNull(settings, "settings");
    return POOLS.computeIfAbsent(settings, s -> PooledShardEndpoint.create(s, HOUSEKEEPING));
  }

  /**
   * Returns the number of connections currently checked out of the pool of an endpoint
   * returned by {@link #endpoint}; 0 once the pool is closed.
   */
  public static int activeConnections(ShardEndpoint endpoint) {
    Objects.requireNonNull(endpoint, "endpoint");
    if (endpoint instanceof PooledShardEndpoint pooled) {
      return pooled.activeConnections();
    }
    throw new IllegalArgumentException(
        "endpoint of shard '" + endpoint.name() + "' is not a ShardPools endpoint");
  }

  /**
   * Closes every pool. Endpoints handed out before fail from then on; {@link #endpoint} creates
   * new pools. Also runs as a shutdown hook.
   */
  public static void closeAll() {
    for (ShardConnectionSettings settings : POOLS.keySet()) {
      PooledShardEndpoint endpoint = POOLS.remove(settings);
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

  private static ScheduledExecutorService createHousekeeping() {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "shardset-pool-housekeeper");
      thread.setDaemon(true);
      return thread;
    });
    // Closed pools cancel their housekeeping tasks; drop them instead of keeping them queued.
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }
}
