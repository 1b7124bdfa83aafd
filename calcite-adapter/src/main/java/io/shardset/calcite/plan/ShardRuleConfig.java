package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;
import java.util.function.Function;

/**
 * Immutable configuration of a ShardSet planner rule.
 *
 * <p>Calcite's own rules generate their configurations with an annotation processor; a
 * hand-written record keeps the build free of one for the few rules ShardSet has.
 *
 * @param relBuilderFactory factory of the builder the rule uses
 * @param description rule description, unique within a planner
 * @param operandSupplier the operands the rule matches
 * @param ruleFactory creates the rule from this configuration
 */
public record ShardRuleConfig(RelBuilderFactory relBuilderFactory,
    @Nullable String description, RelRule.OperandTransform operandSupplier,
    Function<ShardRuleConfig, RelOptRule> ruleFactory) implements RelRule.Config {

  public ShardRuleConfig {
    Objects.requireNonNull(relBuilderFactory, "relBuilderFactory");
    Objects.requireNonNull(operandSupplier, "operandSupplier");
    Objects.requireNonNull(ruleFactory, "ruleFactory");
  }

  /** Creates a configuration with the logical builder. */
  static ShardRuleConfig of(String description, RelRule.OperandTransform operands,
      Function<ShardRuleConfig, RelOptRule> ruleFactory) {
    return new ShardRuleConfig(RelFactories.LOGICAL_BUILDER, description, operands,
        ruleFactory);
  }

  @Override public RelOptRule toRule() {
    return ruleFactory.apply(this);
  }

  /** Creates the rule, typed. */
  public <R extends RelOptRule> R toRule(Class<R> ruleClass) {
    return ruleClass.cast(toRule());
  }

  @Override public ShardRuleConfig withRelBuilderFactory(RelBuilderFactory factory) {
    return new ShardRuleConfig(factory, description, operandSupplier, ruleFactory);
  }

  @Override public ShardRuleConfig withDescription(@Nullable String newDescription) {
    return new ShardRuleConfig(relBuilderFactory, newDescription, operandSupplier,
        ruleFactory);
  }

  @Override public ShardRuleConfig withOperandSupplier(RelRule.OperandTransform transform) {
    return new ShardRuleConfig(relBuilderFactory, description, transform, ruleFactory);
  }
}
