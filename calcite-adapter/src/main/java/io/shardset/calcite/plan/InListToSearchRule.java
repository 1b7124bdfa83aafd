package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rule that turns the join Calcite makes of {@code x IN (v1, v2, ...)} with 20 or more values
 * (a semi-join, or an inner join with the distinct values, on {@code x = value}) back into a
 * filter on the join's left input: {@code SEARCH(x, Sarg[points])} when the values are
 * literals, {@code x = ?0 OR x = ?1 OR ...} when some are parameters.
 *
 * <p>Why: executed as a join, the values become generated Java code (which exceeds the JVM's
 * 64 KB method limit at a few thousand values; parameters become a union of one-row
 * projections, which also costs the planner milliseconds per value) and the shards receive no
 * list to prune by; as a filter the list is pushed into the shard scan, prunes shards and is
 * narrowed to each shard's keys. The search is built over a sorted range set, in
 * O(n log n), and simplifies cheaply, unlike an OR of ten thousand equalities; the OR of
 * parameters is built flat, without simplification. Exact: a join on {@code x = value}
 * keeps a left row exactly when some value equals x (never when x or the value is NULL).
 * NOT IN (an anti-join with NULL semantics) is left alone.
 *
 * <p>{@code jdbc:shardset:} never makes the join (its statement preparation converts long
 * lists as short ones, see {@code InListConverter}); {@code jdbc:calcite:} offers no hook
 * before the cost-based planner, where this rule then runs among the others.
 */
public final class InListToSearchRule extends RelRule<ShardRuleConfig> {
  /** Matches a join; its right input is examined in {@link #onMatch}. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("InListToSearchRule",
      b0 -> b0.operand(LogicalJoin.class).anyInputs(),
      InListToSearchRule::new);

  private InListToSearchRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalJoin join = call.rel(0);
    if (join.getJoinType() != JoinRelType.SEMI && join.getJoinType() != JoinRelType.INNER
        || !join.getVariablesSet().isEmpty()) {
      return;
    }
    final InListValues list = InListValues.of(join.getRight());
    if (list == null) {
      return;
    }
    final RelNode left = join.getLeft();
    final int leftCount = left.getRowType().getFieldCount();
    final RexNode probe = leftSideOfEquality(join.getCondition(), leftCount);
    if (probe == null) {
      return;
    }
    final RelDataType valueType = join.getRight().getRowType().getFieldList().get(0).getType();
    if (!SqlTypeUtil.equalSansNullability(join.getCluster().getTypeFactory(),
        probe.getType(), valueType)) {
      return; // a comparison across types follows rules a search on x would not
    }
    final boolean literals = list.allLiterals();
    if (join.getJoinType() == JoinRelType.INNER && !list.distinct() && !literals) {
      return; // parameters may repeat, and a repeated value repeats the joined row
    }
    final List<RexNode> points = new ArrayList<>();
    final Set<Object> seen = new HashSet<>();
    for (RexNode value : list.values()) {
      if (value instanceof RexLiteral literal) {
        if (literal.isNull()) {
          continue; // x = NULL never holds: the row joins nothing
        }
        if (!seen.add(literal.getValueAs(Comparable.class))) {
          if (join.getJoinType() == JoinRelType.INNER && !list.distinct()) {
            return; // a repeated value repeats the joined row
          }
          continue;
        }
      } else if (!seen.add(value)) {
        continue;
      }
      points.add(value);
    }
    if (points.isEmpty()) {
      return;
    }
    final RexBuilder rexBuilder = join.getCluster().getRexBuilder();
    final RexNode condition;
    if (literals) {
      condition = rexBuilder.makeIn(probe, points);
      if (condition.getKind() != SqlKind.SEARCH) {
        return; // only a Sarg avoids the OR of equalities this rule exists to avoid
      }
    } else {
      final List<RexNode> equalities = new ArrayList<>(points.size());
      for (RexNode value : points) {
        equalities.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, probe,
            rexBuilder.ensureType(probe.getType(), value, true)));
      }
      condition = RexUtil.composeDisjunction(rexBuilder, equalities);
    }
    final RelNode filtered = LogicalFilter.create(left, condition);
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
}
