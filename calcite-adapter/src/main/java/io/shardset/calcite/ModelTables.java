package io.shardset.calcite;

import io.shardset.execution.ModelResources;
import io.shardset.model.ShardSetModel;
import io.shardset.topology.LiveSource;

import org.apache.calcite.schema.Table;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The tables a runtime built for each model it serves, shared by the connections that open on
 * the same version of the same model: opening a connection then reads nothing from the
 * shards. Calcite builds a schema for every connection, and reading every shard's metadata
 * each time costs a second at a thousand shards.
 *
 * <p>Tables are built again, from the shards, for a connection that opens
 * <ul>
 *   <li>on another model, or another version of a model file (a resharding step publishes
 *   one);</li>
 *   <li>once the tables are older than the maximum age, so that tables changed on the shards
 *   (a column added everywhere, say) are seen without a restart;</li>
 *   <li>after the model's pools closed with its last connection.</li>
 * </ul>
 * Tables read again only for their age that come out alike ({@link #alike}) are not swapped
 * for the new ones, so that the plans of the process's plan cache, made on tables by
 * identity, keep serving the connections that open later. A build that fails is not kept:
 * every connection that opens meanwhile reads the shards and fails with the error they give.
 * Connections that open together on a model that has no tables yet wait for one build.
 */
final class ModelTables {
  /** How long tables built from the shards serve new connections. */
  static final Duration MAX_AGE = Duration.ofSeconds(60);

  /** Tables built for one model version, and when. */
  private record Built(ShardSetModel model, @Nullable LiveSource live, long builtAtNanos,
      Map<String, Table> tables) {
  }

  /** The tables built last on one model's resources; its monitor serializes builds. */
  private static final class Slot {
    /** Guarded by this. */
    private @Nullable Built built;
  }

  private final Map<ModelResources, Slot> slots = new ConcurrentHashMap<>();
  private final long maxAgeNanos;
  private final LongSupplier nanoClock;

  /** Keeps tables for {@link #MAX_AGE}. */
  ModelTables() {
    this(MAX_AGE, System::nanoTime);
  }

  /**
   * Keeps tables for {@code maxAge} by {@code nanoClock}.
   *
   * @param maxAge zero to build the tables for every connection
   */
  ModelTables(Duration maxAge, LongSupplier nanoClock) {
    this.maxAgeNanos = maxAge.toNanos();
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
  }

  /**
   * The tables of a model version on a model's resources: those built for it before if they
   * are not too old, else what {@code build} returns, kept for the connections to come.
   *
   * @param live the model file the tables follow and its version, or null
   */
  Map<String, Table> tables(ModelResources resources, ShardSetModel model,
      @Nullable LiveSource live, Supplier<Map<String, Table>> build) {
    final Slot slot = slots.computeIfAbsent(resources, r -> {
      // Tables hold the resources' pools: they go with them.
      r.closeWith(() -> slots.remove(r));
      return new Slot();
    });
    synchronized (slot) {
      final Built built = slot.built;
      final long now = nanoClock.getAsLong();
      if (built != null && built.model().equals(model) && Objects.equals(built.live(), live)
          && now - built.builtAtNanos() < maxAgeNanos) {
        return built.tables();
      }
      final Map<String, Table> fresh = Map.copyOf(build.get());
      // Tables read again only for their age, and found alike, stay the ones connections
      // have: the process's plans are made on tables by identity, and stay shared.
      final Map<String, Table> tables = built != null && built.model().equals(model)
          && Objects.equals(built.live(), live) && alike(built.tables(), fresh)
          ? built.tables() : fresh;
      slot.built = new Built(model, live, now, tables);
      return tables;
    }
  }

  /**
   * Whether tables read again from the shards are those read before: the same names, each
   * sharded table with the same layout (columns, types, physical tables) and the same kind of
   * SQL dialect on each shard. Their row counts are not compared: the planner's estimates
   * stay those read first for as long as the tables stay.
   */
  static boolean alike(Map<String, Table> before, Map<String, Table> now) {
    if (!before.keySet().equals(now.keySet())) {
      return false;
    }
    for (Map.Entry<String, Table> entry : before.entrySet()) {
      final Table other = now.get(entry.getKey());
      if (entry.getValue() instanceof ShardTable mine && other instanceof ShardTable theirs) {
        if (!alike(mine, theirs)) {
          return false;
        }
      } else if (!(entry.getValue() instanceof SequenceTable
          && other instanceof SequenceTable)) {
        return false;
      }
    }
    return true;
  }

  private static boolean alike(ShardTable before, ShardTable now) {
    if (!before.layout().equals(now.layout())
        || !before.shardNames().equals(now.shardNames())) {
      return false;
    }
    for (int shard = 0; shard < before.shardNames().size(); shard++) {
      if (before.dialect(shard).getClass() != now.dialect(shard).getClass()
          || before.dialect(shard).getDatabaseProduct() != now.dialect(shard)
              .getDatabaseProduct()) {
        return false;
      }
    }
    return true;
  }
}
