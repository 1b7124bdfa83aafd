package io.shardset.calcite.plan;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

import com.google.common.collect.ImmutableSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Writes the semi and anti joins of a pushed tree as SQL the shards run, before the tree
 * becomes shard SQL. A semi join on key equalities alone becomes an inner join with the
 * distinct join keys of its right side: {@code L SEMI JOIN R ON L.a = R.b} as
 * {@code SELECT L.* FROM L JOIN (SELECT b FROM R GROUP BY b) ON L.a = b}; each row of L meets
 * at most one distinct key, so it comes out once or not at all, as from the semi join. Any
 * other semi or anti join becomes a filter with a correlated {@code [NOT] EXISTS (SELECT *
 * FROM R WHERE R.b = L.a AND ...)}, which Calcite's SQL writer qualifies with L's alias.
 *
 * <p>(Calcite's SQL writer, given the join itself, would write {@code WHERE EXISTS (SELECT 1
 * FROM (...) t1 WHERE "A" = "t1"."B")}, with the outer column unqualified, where SQL's scoping
 * reads it as the inner table's.) Only joins with at least one {@code =} of a left and a right
 * column are pushed ({@link #isPushable}): the shards run them on the co-location key.
 */
final class SemiJoinWriter {
  private SemiJoinWriter() {
  }

  /** Whether a join's condition is only equalities of a left and a right column ({@code =},
   * so NULL matches nothing), at least one. */
  static boolean isKeyMatch(LogicalJoin join) {
    return isKeyMatch(join.analyzeCondition());
  }

  /** Whether a semi or anti join can be written for the shards: its condition has at least
   * one {@code =} of a left and a right column, and its other key equalities are {@code =}
   * too (not {@code IS NOT DISTINCT FROM}). */
  static boolean isPushable(LogicalJoin join) {
    return !join.getJoinType().projectsRight() && equatesColumns(join.analyzeCondition());
  }

  private static boolean isKeyMatch(JoinInfo info) {
    return info.isEqui() && equatesColumns(info);
  }

  /** Whether a condition has at least one key pair, every one an {@code =}. */
  private static boolean equatesColumns(JoinInfo info) {
    return !info.leftKeys.isEmpty()
        && info.nullExclusionFlags.stream().allMatch(excludes -> excludes);
  }

  /** The tree with its semi joins on key equalities written as inner joins. */
  static RelNode rewrite(RelNode pushed) {
    return pushed.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        final RelNode visited = super.visit(other);
        return visited instanceof LogicalJoin join && join.getJoinType() == JoinRelType.SEMI
            && isKeyMatch(join) ? asInnerJoin(join) : visited;
      }
    });
  }

  /** The tree with its other semi and anti joins written as filters with {@code [NOT]
   * EXISTS}: the last step before SQL, as the rewrites between see no subquery's tree. */
  static RelNode existsFilters(RelNode pushed) {
    return pushed.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        final RelNode visited = super.visit(other);
        return visited instanceof LogicalJoin join && !join.getJoinType().projectsRight()
            ? asExistsFilter(join) : visited;
      }
    });
  }

  private static RelNode asExistsFilter(LogicalJoin join) {
    final RelNode left = join.getLeft();
    final RexBuilder rexBuilder = join.getCluster().getRexBuilder();
    final CorrelationId id = join.getCluster().createCorrel();
    final RexNode outer = rexBuilder.makeCorrel(left.getRowType(), id);
    final int leftCount = left.getRowType().getFieldCount();
    final RexNode condition = join.getCondition().accept(new RexShuttle() {
      @Override public RexNode visitInputRef(RexInputRef ref) {
        return ref.getIndex() < leftCount ? rexBuilder.makeFieldAccess(outer, ref.getIndex())
            : new RexInputRef(ref.getIndex() - leftCount, ref.getType());
      }
    });
    final RexNode exists =
        RexSubQuery.exists(LogicalFilter.create(join.getRight(), condition));
    return LogicalFilter.create(left, join.getJoinType() == JoinRelType.ANTI
        ? rexBuilder.makeCall(SqlStdOperatorTable.NOT, exists) : exists, ImmutableSet.of(id));
  }

  private static RelNode asInnerJoin(LogicalJoin join) {
    final JoinInfo info = join.analyzeCondition();
    if (!isKeyMatch(info)) {
      throw new IllegalStateException("a pushed semi join on other than key equalities: "
          + join.getCondition());
    }
    final RelNode left = join.getLeft();
    final ImmutableBitSet keys = ImmutableBitSet.of(info.rightKeys);
    // A right side already distinct on the keys (an EXISTS whose keys ExistsAsJoins grouped)
    // is not grouped again.
    final RelNode right = join.getRight();
    final RelNode distinctKeys = keys.cardinality() == right.getRowType().getFieldCount()
        && Boolean.TRUE.equals(join.getCluster().getMetadataQuery().areColumnsUnique(right, keys))
        ? right : LogicalAggregate.create(right, List.of(), keys, null, List.of());
    final RexBuilder rexBuilder = join.getCluster().getRexBuilder();
    final List<RelDataTypeField> leftFields = left.getRowType().getFieldList();
    final List<RelDataTypeField> keyFields = distinctKeys.getRowType().getFieldList();
    final List<RexNode> equalities = new ArrayList<>();
    for (int i = 0; i < info.leftKeys.size(); i++) {
      final int leftKey = info.leftKeys.get(i);
      final int key = keys.indexOf(info.rightKeys.get(i));
      equalities.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
          new RexInputRef(leftKey, leftFields.get(leftKey).getType()),
          new RexInputRef(leftFields.size() + key, keyFields.get(key).getType())));
    }
    final RelNode inner = LogicalJoin.create(left, distinctKeys, List.of(),
        RexUtil.composeConjunction(rexBuilder, equalities), Set.of(), JoinRelType.INNER);
    return LogicalProject.create(inner, List.of(), rexBuilder.identityProjects(left.getRowType()),
        left.getRowType().getFieldNames(), Set.of());
  }
}
