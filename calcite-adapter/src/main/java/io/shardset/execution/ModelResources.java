package io.shardset.execution;

import com.google.common.base.Ticker;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What one model holds open on its shards while any of its connections is open: a pool per
 * shard and a cache per lookup-table directory. Every connection and schema of the model
 * shares them, so that invalidating a directory entry through one reaches all.
 */
public final class ModelResources implements AutoCloseable {
  private final ShardPools pools;
  private final ConcurrentMap<JdbcDirectory.Settings, JdbcDirectory> directories =
      new ConcurrentHashMap<>();
  /** What closes with the resources, before the pools; guarded by itself. */
  private final List<AutoCloseable> companions = new ArrayList<>();

  /**
   * Creates a model's resources, opening nothing until asked, with meters of their own.
   *
   * @param housekeeping runs the pools' housekeeping; the caller shuts it down
   */
  public ModelResources(ScheduledExecutorService housekeeping) {
    this(housekeeping, new ShardMetrics());
  }

  /**
   * Creates a model's resources, opening nothing until asked.
   *
   * @param housekeeping runs the pools' housekeeping; the caller shuts it down
   * @param metrics the meters the pools report to
   */
  public ModelResources(ScheduledExecutorService housekeeping, ShardMetrics metrics) {
    this.pools = new ShardPools(housekeeping, metrics);
  }

  /** The model's shard pools. */
  public ShardPools pools() {
    return pools;
  }

  /** The endpoint of the model's pool for these settings, created on first use. */
  public ShardEndpoint endpoint(ShardConnectionSettings settings) {
    return pools.endpoint(settings);
  }

  /** The model's directory of these settings, created on first use. */
  public JdbcDirectory directory(JdbcDirectory.Settings settings) {
    Objects.requireNonNull(settings, "settings");
    return directories.computeIfAbsent(settings,
        s -> new JdbcDirectory(s, pools, Ticker.systemTicker()));
  }

  /** Whether {@link #close} ran. */
  public boolean isClosed() {
    return pools.isClosed();
  }

  /**
   * Closes {@code companion} when these resources close, before their pools: what uses the
   * pools for as long as the model is open (its transaction coordinator, say).
   */
  public void closeWith(AutoCloseable companion) {
    synchronized (companions) {
      companions.add(Objects.requireNonNull(companion, "companion"));
    }
  }

  /**
   * Closes what closes with these resources, then the pools; the directories' caches go
   * with this object.
   */
  @Override public void close() {
    final List<AutoCloseable> closing;
    synchronized (companions) {
      closing = new ArrayList<>(companions);
      companions.clear();
    }
    for (AutoCloseable companion : closing) {
      try {
        companion.close();
      } catch (Exception e) {
        // The pools close regardless.
      }
    }
    pools.close();
  }
}
