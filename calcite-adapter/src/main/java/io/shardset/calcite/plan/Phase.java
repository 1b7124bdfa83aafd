package io.shardset.calcite.plan;

/**
 * How far the work pushed into a shard scan has gone, which decides what may still be pushed.
 *
 * <p>The order matters: operators are applied in the shards in the order Scan, Filter,
 * Project, Aggregate, Sort, and a rule never pushes an operator that would have to run
 * before one already pushed. Rules that have nothing to push must not create a node at all,
 * or the planner loops.
 */
public enum Phase {
  /** Only row-wise work (filters, projections, co-located joins): each shard returns rows. */
  ROWS,
  /** A complete aggregate: every group lives on one shard, so each shard returns final
   * groups; row-wise work over the groups (HAVING) and a sort may follow. */
  AGGREGATED,
  /** A partial aggregate: the final aggregate runs above the scan; nothing may follow. */
  PARTIAL,
  /** Sorted (and maybe limited) per shard; the shards' streams are merged; nothing may
   * follow. */
  SORTED;

  /** Whether a row-wise operator (Filter, Project) may be pushed in this phase. */
  boolean acceptsRowWise() {
    return this == ROWS || this == AGGREGATED;
  }
}
