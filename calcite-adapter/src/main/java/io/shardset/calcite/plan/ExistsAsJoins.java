package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

import com.google.common.collect.ImmutableSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes {@code EXISTS} and {@code NOT EXISTS} subqueries of a filter as semi and anti joins,
 * placed on the table whose columns they correlate with, before Calcite removes subqueries.
 *
 * <p>Calcite's own removal makes a correlated {@code EXISTS} a join with the subquery's rows
 * grouped by the outer columns, joined again with every outer row, and a {@code NOT EXISTS}
 * a left join and a null test: a statement's shards could not run either, so TPC-H Q21's
 * lines of other suppliers were matched above the shards. As a semi or anti join of the
 * correlated table alone ({@code l1 SEMI JOIN l2 ON l2.K = l1.K AND l2.S <> l1.S}), the join
 * runs inside the shards wherever the two sides are co-located on the condition's key
 * ({@link ShardJoinRule}), and is written back as {@code [NOT] EXISTS} in the shard SQL
 * ({@link SemiJoinWriter}).
 *
 * <p>Only a conjunct of the filter's condition is rewritten, and only a subquery that is,
 * below any projections, filters over a relation that does not correlate, with at least one
 * equality between a column of its own and an outer column, and no further subquery. The
 * join goes down through inner joins, uncorrelated filters and projections of plain columns
 * to the input that holds every outer column the subquery reads: there it keeps or drops the
 * same outer rows, as {@code EXISTS} depends on nothing else of them.
 */
final class ExistsAsJoins {
  private ExistsAsJoins() {
  }

  /** The tree with each qualifying {@code [NOT] EXISTS} conjunct written as a join. */
  static RelNode rewrite(RelNode rel) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        final RelNode visited = super.visit(other);
        return visited instanceof LogicalFilter filter ? rewrite(filter) : visited;
      }
    });
  }

  private static RelNode rewrite(LogicalFilter filter) {
    final List<RexNode> kept = new ArrayList<>();
    RelNode input = filter.getInput();
    for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
      final RelNode joined = join(input, conjunct, filter.getVariablesSet());
      if (joined == null) {
        kept.add(conjunct);
      } else {
        input = joined;
      }
    }
    if (input == filter.getInput()) {
      return filter;
    }
    final RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
    final RexNode condition = RexUtil.composeConjunction(rexBuilder, kept);
    if (condition.isAlwaysTrue()) {
      return input;
    }
    final Set<CorrelationId> variables = new HashSet<>();
    for (CorrelationId id : filter.getVariablesSet()) {
      if (usesCorrelation(condition, id)) {
        variables.add(id);
      }
    }
    return LogicalFilter.create(input, condition, ImmutableSet.copyOf(variables));
  }

  /** {@code input} with {@code conjunct} as a semi or anti join, or null if it is not an
   * {@code EXISTS} this rewrites. */
  private static @Nullable RelNode join(RelNode input, RexNode conjunct,
      Set<CorrelationId> variables) {
    final boolean anti = conjunct.getKind() == SqlKind.NOT;
    final RexNode test = anti ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
    if (!(test instanceof RexSubQuery subQuery) || subQuery.getKind() != SqlKind.EXISTS) {
      return null;
    }
    RelNode inner = subQuery.rel;
    while (inner instanceof LogicalProject project) {
      inner = project.getInput();
    }
    final List<RexNode> conditions = new ArrayList<>();
    while (inner instanceof LogicalFilter innerFilter) {
      conditions.add(innerFilter.getCondition());
      inner = innerFilter.getInput();
    }
    final RexBuilder rexBuilder = input.getCluster().getRexBuilder();
    final RexNode condition = resolved(rexBuilder,
        RexUtil.composeConjunction(rexBuilder, conditions), variables, input.getRowType());
    final OuterColumns outer = condition == null ? null : OuterColumns.of(condition);
    if (outer == null || !outer.equatesAnOuterColumn()
        || !RelOptUtil.getVariablesUsed(inner).isEmpty()
        || RexUtil.SubQueryFinder.find(condition) != null) {
      return null;
    }
    final Side side = Side.of(inner, RelOptUtil.conjunctions(condition));
    return placed(input, outer.columns(), side.rel(), side.condition(),
        anti ? JoinRelType.ANTI : JoinRelType.SEMI,
        identity(input.getRowType().getFieldCount()));
  }

  /**
   * The subquery's side of the join and the join's condition over it. The subquery's own
   * conditions filter its rows, with {@code IS NOT NULL} for each column it equates with an
   * outer column (a null there matches nothing, so the rows need not leave the shards); the
   * side keeps only the columns the join's condition reads, distinct when the condition is
   * only equalities with outer columns (each outer row then meets a value once), as Calcite's
   * own removal of the subquery would group them.
   *
   * @param rel the side
   * @param condition the join's condition, its inner columns those of {@code rel}
   */
  private record Side(RelNode rel, RexNode condition) {
    static Side of(RelNode inner, List<RexNode> conjuncts) {
      final RexBuilder rexBuilder = inner.getCluster().getRexBuilder();
      final List<RexNode> own = new ArrayList<>();
      final List<RexNode> correlated = new ArrayList<>();
      boolean onlyKeys = true;
      for (RexNode part : conjuncts) {
        if (!RexUtil.containsCorrelation(part)) {
          own.add(part);
          continue;
        }
        correlated.add(part);
        final RexInputRef key = OuterColumns.equatedInnerColumn(part);
        if (key == null) {
          onlyKeys = false;
        } else if (key.getType().isNullable()) {
          own.add(rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, key));
        }
      }
      final RelNode filtered = own.isEmpty() ? inner
          : LogicalFilter.create(inner, RexUtil.composeConjunction(rexBuilder, own));
      final RexNode condition = RexUtil.composeConjunction(rexBuilder, correlated);
      final ImmutableBitSet used = RelOptUtil.InputFinder.bits(condition);
      final List<RexNode> columns = new ArrayList<>();
      final List<String> names = new ArrayList<>();
      for (int column : used) {
        columns.add(rexBuilder.makeInputRef(filtered, column));
        names.add(filtered.getRowType().getFieldNames().get(column));
      }
      final RelNode projected =
          LogicalProject.create(filtered, List.of(), columns, names, Set.of());
      final RelNode rel = onlyKeys ? LogicalAggregate.create(projected, List.of(),
          ImmutableBitSet.range(columns.size()), null, List.of()) : projected;
      final RexNode remapped = condition.accept(new RexShuttle() {
        @Override public RexNode visitInputRef(RexInputRef ref) {
          return new RexInputRef(used.indexOf(ref.getIndex()), ref.getType());
        }
      });
      return new Side(rel, remapped);
    }
  }

  /**
   * {@code node} with the join of {@code inner} placed as low as it goes.
   *
   * @param fields for each field of the filter's input, its field of {@code node} (where
   *     it is one of the outer columns)
   */
  private static RelNode placed(RelNode node, ImmutableBitSet columns, RelNode inner,
      RexNode condition, JoinRelType type, int[] fields) {
    if (node instanceof LogicalJoin join && join.getJoinType() == JoinRelType.INNER) {
      final int leftCount = join.getLeft().getRowType().getFieldCount();
      final boolean allLeft = columns.asList().stream().allMatch(c -> fields[c] < leftCount);
      final boolean allRight = columns.asList().stream().allMatch(c -> fields[c] >= leftCount);
      if (allLeft) {
        return join.copy(join.getTraitSet(), List.of(
            placed(join.getLeft(), columns, inner, condition, type, fields),
            join.getRight()));
      }
      if (allRight) {
        final int[] shifted = fields.clone();
        for (int c : columns) {
          shifted[c] = fields[c] - leftCount;
        }
        return join.copy(join.getTraitSet(), List.of(join.getLeft(),
            placed(join.getRight(), columns, inner, condition, type, shifted)));
      }
    } else if (node instanceof LogicalFilter below && below.getVariablesSet().isEmpty()
        && RexUtil.SubQueryFinder.find(below.getCondition()) == null) {
      return below.copy(below.getTraitSet(),
          placed(below.getInput(), columns, inner, condition, type, fields),
          below.getCondition());
    } else if (node instanceof LogicalProject project) {
      final int[] through = fields.clone();
      boolean plain = true;
      for (int c : columns) {
        if (project.getProjects().get(fields[c]) instanceof RexInputRef ref) {
          through[c] = ref.getIndex();
        } else {
          plain = false;
        }
      }
      if (plain) {
        return project.copy(project.getTraitSet(),
            placed(project.getInput(), columns, inner, condition, type, through),
            project.getProjects(), project.getRowType());
      }
    }
    return LogicalJoin.create(node, inner, List.of(), joinCondition(node, condition, fields),
        Set.of(), type);
  }

  /** The subquery's condition as a join condition: an outer column {@code $cor.F} becomes
   * field {@code F} of {@code node} (through {@code fields}), and the subquery's own columns
   * follow {@code node}'s. */
  private static RexNode joinCondition(RelNode node, RexNode condition, int[] fields) {
    final RexBuilder rexBuilder = node.getCluster().getRexBuilder();
    final int outerCount = node.getRowType().getFieldCount();
    return condition.accept(new RexShuttle() {
      @Override public RexNode visitInputRef(RexInputRef ref) {
        return new RexInputRef(ref.getIndex() + outerCount, ref.getType());
      }

      @Override public RexNode visitFieldAccess(RexFieldAccess access) {
        if (access.getReferenceExpr() instanceof RexCorrelVariable) {
          final int field = fields[access.getField().getIndex()];
          return rexBuilder.makeInputRef(node.getRowType().getFieldList().get(field).getType(),
              field);
        }
        return super.visitFieldAccess(access);
      }
    });
  }

  /**
   * The condition with every outer column as a field of {@code outer}, the filter's input, or
   * null if one is not a column of it. Calcite's trimming of unused fields, before this runs,
   * leaves some correlation variables typed as the untrimmed table (the field's index is
   * then the table's), so a column is found by its name where the types differ.
   */
  private static @Nullable RexNode resolved(RexBuilder rexBuilder, RexNode condition,
      Set<CorrelationId> variables, RelDataType outer) {
    final boolean[] unresolved = {false};
    final RexNode result = condition.accept(new RexShuttle() {
      @Override public RexNode visitFieldAccess(RexFieldAccess access) {
        if (!(access.getReferenceExpr() instanceof RexCorrelVariable variable)) {
          return super.visitFieldAccess(access);
        }
        final int index = outerIndex(variable, access.getField(), outer);
        if (!variables.contains(variable.id) || index < 0) {
          unresolved[0] = true;
          return access;
        }
        return rexBuilder.makeFieldAccess(rexBuilder.makeCorrel(outer, variable.id), index);
      }

      @Override public RexNode visitCorrelVariable(RexCorrelVariable variable) {
        // A correlation variable other than as a field access: not a column.
        unresolved[0] = true;
        return variable;
      }
    });
    return unresolved[0] ? null : result;
  }

  /** The field of {@code outer} that {@code field} of the variable's type is, or -1. */
  private static int outerIndex(RexCorrelVariable variable, RelDataTypeField field,
      RelDataType outer) {
    if (variable.getType().equals(outer)) {
      return field.getIndex();
    }
    int index = -1;
    for (RelDataTypeField candidate : outer.getFieldList()) {
      if (candidate.getName().equals(field.getName())) {
        if (index >= 0 || candidate.getType().getSqlTypeName()
            != field.getType().getSqlTypeName()) {
          return -1;
        }
        index = candidate.getIndex();
      }
    }
    return index;
  }

  private static int[] identity(int count) {
    final int[] fields = new int[count];
    for (int i = 0; i < count; i++) {
      fields[i] = i;
    }
    return fields;
  }

  private static boolean usesCorrelation(RexNode condition, CorrelationId id) {
    final boolean[] found = {false};
    condition.accept(new RexShuttle() {
      @Override public RexNode visitCorrelVariable(RexCorrelVariable variable) {
        found[0] |= variable.id.equals(id);
        return variable;
      }

      @Override public RexNode visitSubQuery(RexSubQuery subQuery) {
        found[0] |= RelOptUtil.getVariablesUsed(subQuery.rel).contains(id);
        return super.visitSubQuery(subQuery);
      }
    });
    return found[0];
  }

  /**
   * The outer columns a subquery's condition reads (as {@code $cor.F}, {@link #resolved}).
   *
   * @param columns the outer columns
   * @param equalities whether some conjunct equates an outer column with a subquery column
   */
  private record OuterColumns(ImmutableBitSet columns, boolean equalities) {
    boolean equatesAnOuterColumn() {
      return equalities;
    }

    static OuterColumns of(RexNode condition) {
      final ImmutableBitSet.Builder columns = ImmutableBitSet.builder();
      condition.accept(new RexShuttle() {
        @Override public RexNode visitFieldAccess(RexFieldAccess access) {
          if (access.getReferenceExpr() instanceof RexCorrelVariable) {
            columns.set(access.getField().getIndex());
            return access;
          }
          return super.visitFieldAccess(access);
        }
      });
      boolean equalities = false;
      for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
        equalities |= equatedInnerColumn(conjunct) != null;
      }
      return new OuterColumns(columns.build(), equalities);
    }

    /** The subquery column a conjunct equates with an outer column, or null. */
    static @Nullable RexInputRef equatedInnerColumn(RexNode conjunct) {
      if (conjunct.getKind() != SqlKind.EQUALS) {
        return null;
      }
      final List<RexNode> sides = ((RexCall) conjunct).getOperands();
      if (isOuter(sides.get(0)) && sides.get(1) instanceof RexInputRef ref) {
        return ref;
      }
      return isOuter(sides.get(1)) && sides.get(0) instanceof RexInputRef ref ? ref : null;
    }

    private static boolean isOuter(RexNode node) {
      return node instanceof RexFieldAccess access
          && access.getReferenceExpr() instanceof RexCorrelVariable;
    }
  }
}
