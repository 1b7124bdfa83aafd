package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableModify;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Makes a {@link ShardTableModify} executable as an {@link EnumerableShardTableModify}, for
 * the operations the write path implements (INSERT so far); others stay unconverted, and the
 * planner says it cannot implement them.
 */
public final class ShardTableModifyRule extends ConverterRule {
  /** The rule's configuration. */
  public static final Config DEFAULT_CONFIG = Config.INSTANCE
      .withConversion(ShardTableModify.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "ShardTableModifyRule")
      .withRuleFactory(ShardTableModifyRule::new);

  /** Creates the rule; use {@link ShardRules#MODIFY}. */
  ShardTableModifyRule(Config config) {
    super(config);
  }

  @Override public @Nullable RelNode convert(RelNode rel) {
    final ShardTableModify modify = (ShardTableModify) rel;
    if (modify.getOperation() != TableModify.Operation.INSERT) {
      return null;
    }
    final RelNode input = convert(modify.getInput(),
        modify.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE));
    return EnumerableShardTableModify.create(modify, input);
  }
}
