package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;

/** Rule that converts a logical {@link ShardScan} into an {@link EnumerableShardScan}. */
public final class ShardScanToEnumerableRule extends ConverterRule {
  /** Default configuration. */
  static final Config DEFAULT_CONFIG = Config.INSTANCE
      .withConversion(ShardScan.class, Convention.NONE, EnumerableConvention.INSTANCE,
          "ShardScanToEnumerableRule")
      .withRuleFactory(ShardScanToEnumerableRule::new);

  private ShardScanToEnumerableRule(Config config) {
    super(config);
  }

  @Override public RelNode convert(RelNode rel) {
    final ShardScan scan = (ShardScan) rel;
    return EnumerableShardScan.create(scan.getCluster(),
        scan.getTraitSet().replace(EnumerableConvention.INSTANCE), scan.spec());
  }
}
