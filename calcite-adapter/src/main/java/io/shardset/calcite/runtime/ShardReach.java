package io.shardset.calcite.runtime;

import io.shardset.routing.ShardRouter;
import io.shardset.topology.Placement;

import org.apache.calcite.DataContext;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * The shards one execution of a scan reaches and the texts they are sent: the shards the plan
 * fixed or that the query parameters route to, placed as the model current at execution says
 * (its router, the move tables of a resharding in progress).
 *
 * @param targets the shards asked (numbered as the plan numbers them)
 * @param texts the text of each shard
 * @param router the router of this execution, or null for a table without one
 */
record ShardReach(BitSet targets, ShardTexts texts, @Nullable ShardRouter router) {
  ShardReach {
    targets = (BitSet) targets.clone();
    Objects.requireNonNull(texts, "texts");
  }

  @Override public BitSet targets() {
    return (BitSet) targets.clone();
  }

  /**
   * Where an execution goes; null when no shard need be asked.
   *
   * @param live the scan's placement under a changing model, or null
   * @param placement how the model of this execution places the rows, or null when as planned
   */
  static @Nullable ShardReach of(PlannedScan plan, DataContext root,
      @Nullable LivePlacement live, @Nullable Placement placement) {
    if (placement != null && placement.error() != null) {
      throw new IllegalStateException(placement.error());
    }
    final ShardRouter liveRouter = placement == null ? null : placement.router();
    final ShardRouter router = liveRouter == null ? plan.routing().router() : liveRouter;
    final BitSet targets = liveRouter == null ? targets(plan, root)
        : liveTargets(plan, root, liveRouter);
    if (targets.isEmpty()) {
      return null;
    }
    BitSet chosen = null;
    if (plan.subpartitions() != null) {
      chosen = subpartitions(plan, plan.subpartitions(), root);
      if (chosen == null) {
        return null;
      }
    }
    final ShardStatements statements = plan.statements();
    final ShardTexts texts = placement == null || placement.moveReaders().isEmpty()
        ? statements.texts(chosen, new BitSet(), new BitSet())
        : statements.texts(chosen, placement.moveReaders(),
            Objects.requireNonNull(live, "live").carried(placement));
    return new ShardReach(targets, texts, router);
  }

  /** The shards an execution reaches under the plan's router: those the plan fixed, or those
   * the query parameters route to. */
  static BitSet targets(PlannedScan plan, DataContext root) {
    final ShardRouting routing = plan.routing();
    final BitSet fixed = routing.staticShards();
    if (fixed != null) {
      return fixed;
    }
    return route(plan, Objects.requireNonNull(routing.router(), "router"), plan.bound(root));
  }

  /** The shards an execution reaches under a router of a newer model. */
  private static BitSet liveTargets(PlannedScan plan, DataContext root,
      ShardRouter liveRouter) {
    final BitSet fixed = plan.routing().staticShards();
    if (fixed != null && fixed.isEmpty()) {
      return new BitSet(); // no row can match, under any placement
    }
    final BitSet targets = route(plan, liveRouter, plan.bound(root));
    if (fixed != null && fixed.cardinality() == 1 && targets.cardinality() > 1) {
      // The plan may run work inside its one shard that is wrong over several.
      throw new IllegalStateException("the model now places the rows of "
          + plan.shards().tableName() + " this statement reads on " + targets.cardinality()
          + " shards, where it was planned for one; prepare it again");
    }
    return targets;
  }

  private static BitSet route(PlannedScan plan, ShardRouter router,
      IntFunction<@Nullable Object> bound) {
    try {
      final BitSet routed = plan.routing().condition().shards(router, bound::apply);
      final BitSet only = plan.routing().onlyShards();
      if (only != null) {
        routed.and(only);
      }
      return routed;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot route " + plan.shards().tableName() + ": "
          + e.getMessage(), e);
    }
  }

  /** The subpartitions the parameters of an execution select; null when no shard need be
   * asked. */
  private static @Nullable BitSet subpartitions(PlannedScan plan, SubpartitionChoice choice,
      DataContext root) {
    try {
      return choice.selection(plan.bound(root)::apply);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot route " + plan.shards().tableName()
          + " to its subpartitions: " + e.getMessage(), e);
    }
  }
}
