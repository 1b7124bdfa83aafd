package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;

/** Rule that turns a {@link ShardTableScan} into a {@link ShardScan} with nothing pushed. */
public final class ShardTableScanRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardTableScanRule",
      b -> b.operand(ShardTableScan.class).noInputs(), ShardTableScanRule::new);

  private ShardTableScanRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final ShardTableScan scan = call.rel(0);
    call.transformTo(
        ShardScan.create(scan.getCluster(), scan.getTable(), scan.shardTable(),
            scan.scanHints()));
  }
}
