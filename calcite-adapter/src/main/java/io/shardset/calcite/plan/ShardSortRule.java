package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;

/**
 * Rule that pushes ORDER BY and LIMIT into a {@link ShardScan}.
 *
 * <p>With one target shard the whole Sort runs there. Otherwise each shard sorts and returns
 * at most {@code offset + fetch} rows, the shards' streams are merged in order (the scan then
 * carries the collation trait), and the offset and fetch are applied once above the merge.
 */
public final class ShardSortRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardSortRule",
      b0 -> b0.operand(LogicalSort.class)
          .oneInput(b1 -> b1.operand(ShardScan.class).noInputs()),
      ShardSortRule::new);

  private ShardSortRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalSort sort = call.rel(0);
    final ShardScan scan = call.rel(1);
    final ShardScanSpec spec = scan.spec();
    if (!spec.phase().acceptsRowWise()) {
      return;
    }
    final RelCollation collation = sort.getCollation();
    final boolean ordered = !collation.getFieldCollations().isEmpty();
    if (spec.isSingleShard()) {
      // One shard does it all.
      final RelNode pushed = LogicalSort.create(spec.pushed(), collation, sort.offset,
          sort.fetch);
      call.transformTo(ShardScan.create(scan.getCluster(), spec.with(pushed, Phase.SORTED)));
      return;
    }
    if (ordered && !MergePolicy.canMerge(spec, collation)) {
      return;
    }
    final RexNode limit = perShardLimit(sort.getCluster().getRexBuilder(), sort.offset,
        sort.fetch);
    if (!ordered && limit == null) {
      return; // neither order nor a usable limit: nothing to push
    }
    final RelNode pushed = LogicalSort.create(spec.pushed(), collation, null, limit);
    final RelNode merged = ShardScan.create(scan.getCluster(), spec.with(pushed, Phase.SORTED));
    call.transformTo(sort.offset == null && sort.fetch == null
        ? merged
        : LogicalSort.create(merged, collation, sort.offset, sort.fetch));
  }

  /** {@code offset + fetch}: the rows each shard must return so that the merge can skip
   * {@code offset} and keep {@code fetch}; null without a literal fetch (a dynamic LIMIT
   * cannot be added up at planning time). */
  private static @Nullable RexNode perShardLimit(RexBuilder rexBuilder,
      @Nullable RexNode offset, @Nullable RexNode fetch) {
    if (!(fetch instanceof RexLiteral fetchLiteral)
        || offset != null && !(offset instanceof RexLiteral)) {
      return null;
    }
    BigDecimal rows = fetchLiteral.getValueAs(BigDecimal.class);
    if (offset != null) {
      rows = rows.add(((RexLiteral) offset).getValueAs(BigDecimal.class));
    }
    return rexBuilder.makeExactLiteral(rows);
  }
}
