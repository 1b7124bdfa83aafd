package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Rule that pushes an Aggregate into a {@link ShardScan}.
 *
 * <p>When every group lives on one shard (the GROUP BY holds the whole shard key, or one
 * shard answers) the aggregate runs entirely in the shards and their groups are simply
 * concatenated. Otherwise it is split: each shard computes a partial aggregate of its rows
 * and a final aggregate above the scan combines them (COUNT becomes a sum of counts; SUM, MIN
 * and MAX combine as themselves). AVG reaches this rule already rewritten by Calcite as SUM
 * and COUNT. An aggregate that cannot be split (COUNT(DISTINCT x), say) is left for Calcite
 * above the scan, which is slower but right.
 */
public final class ShardAggregateRule extends RelRule<ShardRuleConfig> {
  /** Aggregate functions that every shard computes exactly as Calcite does. */
  private static final Set<SqlKind> PUSHABLE =
      EnumSet.of(SqlKind.COUNT, SqlKind.SUM, SqlKind.SUM0, SqlKind.MIN, SqlKind.MAX);

  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardAggregateRule",
      b0 -> b0.operand(LogicalAggregate.class)
          .oneInput(b1 -> b1.operand(ShardScan.class).noInputs()),
      ShardAggregateRule::new);

  private ShardAggregateRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalAggregate aggregate = call.rel(0);
    final ShardScan scan = call.rel(1);
    final ShardScanSpec spec = scan.spec();
    if (spec.phase() != Phase.ROWS || aggregate.getGroupType() != Aggregate.Group.SIMPLE
        || !aggregate.getAggCallList().stream().allMatch(ShardAggregateRule::isPushable)) {
      return;
    }
    final RelNode pushed = LogicalAggregate.create(spec.pushed(), List.of(),
        aggregate.getGroupSet(), null, aggregate.getAggCallList());
    if (spec.isExactlyOneShard()
        || KeyColumns.of(spec.pushed(), spec.table())
            .coverKey(aggregate.getGroupSet(), spec.table().keyColumns().size())) {
      call.transformTo(
          ShardScan.create(scan.getCluster(), spec.with(pushed, Phase.AGGREGATED)));
      return;
    }
    if (aggregate.getAggCallList().stream().anyMatch(AggregateCall::isDistinct)) {
      return; // a distinct count cannot be added up across shards
    }
    final ShardScan partial =
        ShardScan.create(scan.getCluster(), spec.with(pushed, Phase.PARTIAL));
    call.transformTo(finalAggregate(aggregate, partial));
  }

  private static boolean isPushable(AggregateCall call) {
    return PUSHABLE.contains(call.getAggregation().getKind())
        && call.filterArg < 0
        && call.distinctKeys == null
        && call.getCollation().getFieldCollations().isEmpty()
        && call.rexList.isEmpty();
  }

  /** The aggregate above the scan that combines the shards' partial groups: the group keys
   * are the partial rows' leading fields, and each call rolls up its partial column. */
  private static RelNode finalAggregate(LogicalAggregate aggregate, ShardScan partial) {
    final int groupCount = aggregate.getGroupCount();
    final List<AggregateCall> calls = new ArrayList<>();
    final List<AggregateCall> original = aggregate.getAggCallList();
    for (int i = 0; i < original.size(); i++) {
      final AggregateCall call = original.get(i);
      final SqlAggFunction rollup = MergeRollups.rollup(call, partial.spec().table());
      if (rollup == null) {
        throw new AssertionError("no rollup for " + call);
      }
      calls.add(
          AggregateCall.create(rollup, false, false, false, List.of(),
              List.of(groupCount + i), -1, null, RelCollations.EMPTY, groupCount == 0,
              partial, call.getType(), call.getName()));
    }
    return LogicalAggregate.create(partial, List.of(), ImmutableBitSet.range(groupCount),
        null, calls);
  }
}
