package io.shardset.calcite.plan;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Writes each semi join of a pushed tree as an inner join with the distinct join keys of its
 * right side, before the tree becomes shard SQL: {@code L SEMI JOIN R ON L.a = R.b} as
 * {@code SELECT L.* FROM L JOIN (SELECT b FROM R GROUP BY b) ON L.a = b}. Each row of L meets
 * at most one distinct key, so it comes out once or not at all, as from the semi join.
 *
 * <p>Calcite's SQL writer would write {@code WHERE EXISTS (SELECT 1 FROM (...) t1 WHERE
 * "A" = "t1"."B")}, with the outer column unqualified, where SQL's scoping reads it as the inner
 * table's. Only semi joins whose condition is equalities of columns are pushed
 * ({@link #isKeyMatch}), so the inner join needs nothing else.
 */
final class SemiJoinWriter {
  private SemiJoinWriter() {
  }

  /** Whether a join's condition is only equalities of a left and a right column ({@code =},
   * so NULL matches nothing), at least one. */
  static boolean isKeyMatch(LogicalJoin join) {
    return isKeyMatch(join.analyzeCondition());
  }

  private static boolean isKeyMatch(JoinInfo info) {
    return info.isEqui() && !info.leftKeys.isEmpty()
        && info.nullExclusionFlags.stream().allMatch(excludes -> excludes);
  }

  /** The tree with its semi joins written as inner joins. */
  static RelNode rewrite(RelNode pushed) {
    return pushed.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        final RelNode visited = super.visit(other);
        return visited instanceof LogicalJoin join && join.getJoinType() == JoinRelType.SEMI
            ? asInnerJoin(join) : visited;
      }
    });
  }

  private static RelNode asInnerJoin(LogicalJoin join) {
    final JoinInfo info = join.analyzeCondition();
    if (!isKeyMatch(info)) {
      throw new IllegalStateException("a pushed semi join on other than key equalities: "
          + join.getCondition());
    }
    final RelNode left = join.getLeft();
    final ImmutableBitSet keys = ImmutableBitSet.of(info.rightKeys);
    final RelNode distinctKeys =
        LogicalAggregate.create(join.getRight(), List.of(), keys, null, List.of());
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
