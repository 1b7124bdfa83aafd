package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.routing.KeyCondition;
import io.shardset.routing.ShardRouter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The shards a scan reaches: a fixed set known when the query is planned, or a key condition
 * with query parameters that picks them each time the statement executes.
 */
public final class ShardSelection {
  /** How many shard names EXPLAIN lists before it abbreviates. */
  private static final int NAMES_SHOWN = 8;

  private final int total;
  private final @Nullable BitSet staticShards;
  private final KeyCondition condition;
  /** The shards a hint restricts the scan to; null when none does. */
  private final @Nullable BitSet allowed;

  private ShardSelection(int total, @Nullable BitSet staticShards, KeyCondition condition,
      @Nullable BitSet allowed) {
    this.total = total;
    this.staticShards = staticShards;
    this.condition = condition;
    this.allowed = allowed;
  }

  /**
   * Selects the shards of a table that can hold rows satisfying a key condition.
   *
   * @param allowed the shards a {@code SHARDS} hint keeps the scan to, or null for any
   */
  static ShardSelection of(ShardTable table, KeyCondition condition,
      @Nullable BitSet allowed) {
    final int total = table.shardCount();
    if (table.isDuplicated()) {
      // Every shard holds every row: one shard answers, one the hint allows if it names any.
      final BitSet one = new BitSet();
      final int read = allowed == null || allowed.get(table.readShard()) ? table.readShard()
          : allowed.nextSetBit(0);
      if (read >= 0) {
        one.set(read);
      }
      return new ShardSelection(total, one, condition, allowed);
    }
    final ShardRouter router = Objects.requireNonNull(table.router(), "router");
    if (condition.hasParams()
        || !router.isStable() && !(condition instanceof KeyCondition.Any)) {
      // A router that is not stable (a lookup table's directory) may place a key elsewhere
      // by the time a cached plan runs again: it routes at every execution.
      return new ShardSelection(total, null, condition, allowed);
    }
    final BitSet shards = condition.shards(router, i -> {
      throw new IllegalStateException("no parameters at planning time");
    });
    if (allowed != null) {
      shards.and(allowed);
    }
    return new ShardSelection(total, shards, condition, allowed);
  }

  /** The shards a {@code SHARDS} hint keeps the scan to, or null when no hint does. */
  public @Nullable BitSet allowed() {
    return allowed == null ? null : (BitSet) allowed.clone();
  }

  /** The target shards, or null when query parameters decide them at execution. */
  public @Nullable BitSet staticShards() {
    return staticShards == null ? null : (BitSet) staticShards.clone();
  }

  /** Whether query parameters decide the target shards at execution. */
  public boolean isDynamic() {
    return staticShards == null;
  }

  /** The expected share of the table's shards reached, for costing. */
  double reachFraction() {
    if (total == 0) {
      return 1d;
    }
    // A parameterised key usually means one shard per execution.
    final int reached = staticShards == null ? 1 : staticShards.cardinality();
    return reached / (double) total;
  }

  /** Describes the selection for EXPLAIN, e.g. {@code 1 of 4: s2}. */
  String describe(ShardTable table) {
    if (staticShards == null) {
      final TreeSet<Integer> params = new TreeSet<>();
      collectParams(condition, params);
      final StringBuilder b = new StringBuilder("at execution by");
      if (!Objects.requireNonNull(table.router(), "router").isStable()) {
        b.append(" directory");
      }
      params.forEach(p -> b.append(" ?").append(p));
      b.append(" of ").append(total);
      if (allowed != null) {
        b.append(", within ").append(allowed.cardinality());
      }
      return b.toString();
    }
    final StringBuilder b = new StringBuilder()
        .append(staticShards.cardinality()).append(" of ").append(total);
    int shown = 0;
    for (int i = staticShards.nextSetBit(0); i >= 0; i = staticShards.nextSetBit(i + 1)) {
      b.append(shown == 0 ? ": " : ", ");
      if (shown++ == NAMES_SHOWN) {
        b.append("...");
        break;
      }
      b.append(table.shardName(i));
    }
    return b.toString();
  }

  /** Adds the query parameters a condition compares with. */
  static void collectParams(KeyCondition condition, TreeSet<Integer> params) {
    if (condition instanceof KeyCondition.And and) {
      and.terms().forEach(t -> collectParams(t, params));
    } else if (condition instanceof KeyCondition.Or or) {
      or.terms().forEach(t -> collectParams(t, params));
    } else if (condition instanceof KeyCondition.Compare compare
        && compare.operand() instanceof KeyCondition.Param param) {
      params.add(param.index());
    }
  }
}
