package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rule that turns the join Calcite makes of {@code x IN (literal, ...)} with 20 or more
 * literals (a semi-join, or an inner join with the distinct literals, on {@code x = value})
 * back into a filter {@code SEARCH(x, Sarg[points])} on the join's left input.
 *
 * <p>Why: executed as a join, the literals become generated Java code (which exceeds the JVM's
 * 64 KB method limit at a few thousand literals) and the shards receive no list to prune by;
 * as a search the list is pushed into the shard scan, prunes shards and is narrowed to each
 * shard's keys. The search is built over a sorted range set, in O(n log n), and simplifies
 * cheaply, unlike an OR of ten thousand equalities. Exact: a join on {@code x = value}
 * keeps a left row exactly when some value equals x (never when x or the value is NULL).
 * NOT IN (an anti-join with NULL semantics) is left alone.
 */
public final class InListToSearchRule extends RelRule<ShardRuleConfig> {
  /** Matches a join whose right input is the literals. */
  static final ShardRuleConfig VALUES_CONFIG = ShardRuleConfig.of("InListToSearchRule:Values",
      b0 -> b0.operand(LogicalJoin.class).inputs(
          b1 -> b1.operand(RelNode.class).anyInputs(),
          b2 -> b2.operand(LogicalValues.class).noInputs()),
      InListToSearchRule::new);

  /** Matches a join whose right input is the distinct literals. */
  static final ShardRuleConfig DISTINCT_CONFIG =
      ShardRuleConfig.of("InListToSearchRule:DistinctValues",
          b0 -> b0.operand(LogicalJoin.class).inputs(
              b1 -> b1.operand(RelNode.class).anyInputs(),
              b2 -> b2.operand(LogicalAggregate.class).oneInput(
                  b3 -> b3.operand(LogicalValues.class).noInputs())),
          InListToSearchRule::new);

  private InListToSearchRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalJoin join = call.rel(0);
    final RelNode left = call.rel(1);
    final boolean distinct = call.getRelList().size() == 4;
    if (distinct && !isDistinctOfAll(call.rel(2))) {
      return;
    }
    final Values values = call.rel(call.getRelList().size() - 1);
    if (values.getRowType().getFieldCount() != 1
        || join.getJoinType() != JoinRelType.SEMI && join.getJoinType() != JoinRelType.INNER
        || !join.getVariablesSet().isEmpty()) {
      return;
    }
    final int leftCount = left.getRowType().getFieldCount();
    final RexNode probe = leftSideOfEquality(join.getCondition(), leftCount);
    if (probe == null) {
      return;
    }
    final RelDataType valueType = values.getRowType().getFieldList().get(0).getType();
    if (!SqlTypeUtil.equalSansNullability(join.getCluster().getTypeFactory(),
        probe.getType(), valueType)) {
      return; // a comparison across types follows rules a search on x would not
    }
    final List<RexNode> points = new ArrayList<>();
    final Set<Object> seen = new HashSet<>();
    for (List<RexLiteral> tuple : values.getTuples()) {
      final RexLiteral literal = tuple.get(0);
      if (literal.isNull()) {
        continue; // x = NULL never holds: the row joins nothing
      }
      if (!seen.add(literal.getValueAs(Comparable.class))) {
        if (join.getJoinType() == JoinRelType.INNER && !distinct) {
          return; // a repeated value repeats the joined row
        }
        continue;
      }
      points.add(literal);
    }
    if (points.isEmpty()) {
      return;
    }
    final RexBuilder rexBuilder = join.getCluster().getRexBuilder();
    final RexNode search = rexBuilder.makeIn(probe, points);
    if (search.getKind() != SqlKind.SEARCH) {
      return; // only a Sarg avoids the OR of equalities this rule exists to avoid
    }
    final RelNode filtered = LogicalFilter.create(left, search);
    if (join.getJoinType() == JoinRelType.SEMI) {
      call.transformTo(filtered);
      return;
    }
    final List<RexNode> projects = new ArrayList<>(RexUtil.generateCastExpressions(rexBuilder,
        left.getRowType(), left.getRowType()));
    projects.add(rexBuilder.makeCast(valueType, probe, true, false));
    call.transformTo(call.builder().push(filtered)
        .project(projects, join.getRowType().getFieldNames(), true).build());
  }

  /** The left operand of a condition {@code x = $right0} where x reads only the left input
   * and the right operand is the right input's only column; null for any other condition. */
  private static @Nullable RexNode leftSideOfEquality(RexNode condition, int leftCount) {
    if (condition.getKind() != SqlKind.EQUALS) {
      return null;
    }
    final List<RexNode> operands = ((RexCall) condition).getOperands();
    for (int i = 0; i < 2; i++) {
      final RexNode value = operands.get(1 - i);
      final RexNode probe = operands.get(i);
      if (value instanceof RexInputRef ref && ref.getIndex() == leftCount
          && RelOptUtil.InputFinder.bits(probe).asList().stream().allMatch(f -> f < leftCount)
          && RexUtil.isDeterministic(probe)) {
        return probe;
      }
    }
    return null;
  }

  private static boolean isDistinctOfAll(Aggregate aggregate) {
    return aggregate.getAggCallList().isEmpty()
        && aggregate.getGroupSet().equals(ImmutableBitSet.of(0))
        && aggregate.getGroupType() == Aggregate.Group.SIMPLE;
  }
}
