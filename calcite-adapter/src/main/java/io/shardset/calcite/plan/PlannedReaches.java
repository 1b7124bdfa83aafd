package io.shardset.calcite.plan;

import io.shardset.calcite.guard.ScatterGuard;
import io.shardset.model.ScatterLimit;

import org.apache.calcite.rel.RelNode;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Supplier;

/**
 * The scans (and pushed writes) of a plan whose shards the plan fixes, with their scatter
 * guardrails: checked each time a statement is prepared, so that a statement its guardrail
 * denies fails when it is prepared rather than when it runs. Scans that query parameters route
 * are checked when they run.
 */
public final class PlannedReaches {
  /** A plan with nothing to check. */
  public static final PlannedReaches NONE = new PlannedReaches(List.of());

  /** One scan: its guardrail and how many shards it reaches. */
  private record Reach(ScatterGuard guard, int shards) {
  }

  private final List<Reach> reaches;

  private PlannedReaches(List<Reach> reaches) {
    this.reaches = List.copyOf(reaches);
  }

  /** The fixed reaches of a physical plan. */
  public static PlannedReaches of(RelNode plan) {
    final List<Reach> reaches = new ArrayList<>();
    collect(plan, reaches);
    return reaches.isEmpty() ? NONE : new PlannedReaches(reaches);
  }

  private static void collect(RelNode node, List<Reach> reaches) {
    final ShardScanSpec spec = node instanceof EnumerableShardScan scan ? scan.spec()
        : node instanceof EnumerableShardPushedModify modify
            && !modify.spec().table().isDuplicated() ? modify.spec()
        : null;
    if (spec != null) {
      final BitSet shards = spec.selection().staticShards();
      if (shards != null && shards.cardinality() > 1) {
        reaches.add(new Reach(ShardQueryFactory.guard(spec), shards.cardinality()));
      }
    }
    for (RelNode input : node.getInputs()) {
      collect(input, reaches);
    }
  }

  /**
   * Fails if a guardrail denies a fixed reach.
   *
   * @param connection the connection's own limit, or null; asked only when the plan has a
   *     reach to check, since finding it costs a data context
   * @throws io.shardset.calcite.guard.StatementRefusedException naming the table
   */
  public void check(Supplier<@Nullable ScatterLimit> connection) {
    if (reaches.isEmpty()) {
      return;
    }
    final ScatterLimit limit = connection.get();
    for (Reach reach : reaches) {
      // Warnings wait for the execution, which logs them once.
      reach.guard().refuseOnly(reach.shards(), limit);
    }
  }
}
