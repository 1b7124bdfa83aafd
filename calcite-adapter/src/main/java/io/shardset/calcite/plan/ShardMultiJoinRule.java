package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.rules.LoptOptimizeJoinRule;
import org.apache.calcite.rel.rules.MultiJoin;

/**
 * Rule that gathers a tree of three or more inner joins into one {@link MultiJoin} for
 * {@link LoptOptimizeJoinRule}'s heuristic ordering, as Calcite's {@code JoinToMultiJoinRule}
 * does, but with the joins the shards can run already pushed into joined shard scans (see
 * {@link InnerJoinGraph}): the heuristic orders what remains without ever separating two
 * co-located tables, which an exhaustive search would find but at a cost that grows
 * exponentially with the number of joins.
 *
 * <p>It is meant for a {@code HepPlanner} matching top-down, so that it sees the largest
 * tree of joins first; the shard scans below must already exist ({@link ShardRules#TABLE_SCAN},
 * with filters pushed by {@link ShardRules#FILTER} so that pruning can decide pushdown).
 */
public final class ShardMultiJoinRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardMultiJoinRule",
      b -> b.operand(LogicalJoin.class).predicate(InnerJoinGraph::isInnerJoin).anyInputs(),
      ShardMultiJoinRule::new);

  /** The fewest relations worth ordering heuristically. */
  private static final int MIN_FACTORS = 3;

  private ShardMultiJoinRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final InnerJoinGraph graph = InnerJoinGraph.of(call.rel(0));
    if (graph.factorCount() < MIN_FACTORS) {
      return;
    }
    graph.pushJoinsIntoShards();
    call.transformTo(graph.toRel(call.builder()));
  }
}
