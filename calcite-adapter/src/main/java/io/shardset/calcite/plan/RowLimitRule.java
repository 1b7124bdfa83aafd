package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;

/**
 * Rule that implements the offset and fetch of a Sort as an {@link EnumerableRowLimit}; it
 * stands in for Calcite's {@code EnumerableLimitRule} in planners that plan ShardSet tables.
 */
public final class RowLimitRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("RowLimitRule",
      b0 -> b0.operand(Sort.class)
          .predicate(sort -> sort.offset != null || sort.fetch != null)
          .anyInputs(),
      RowLimitRule::new);

  private RowLimitRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Sort sort = call.rel(0);
    RelNode input = sort.getInput();
    if (!sort.getCollation().getFieldCollations().isEmpty()) {
      // The same sort without offset and fetch, under the limit.
      input = sort.copy(sort.getTraitSet(), input, sort.getCollation(), null, null);
    }
    call.transformTo(EnumerableRowLimit.create(
        convert(input, input.getTraitSet().replace(EnumerableConvention.INSTANCE)),
        sort.offset, sort.fetch));
  }
}
