package io.shardset.calcite.prepare;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link SqlToRelConverter} that converts {@code x IN (v1, v2, ...)} and {@code x NOT IN (...)}
 * (and their synonyms {@code x = ANY (...)}, {@code x <> ALL (...)}) of any length as Calcite
 * converts short lists: to {@code x = v1 OR x = v2 ...} (under NOT for NOT IN), built flat,
 * its comparisons of x with literals folded into one {@code SEARCH(x, Sarg[points])}.
 *
 * <p>Why: Calcite turns a list of 20 or more values into a join with the values (a union of
 * one-row projections where they are {@code ?}), which the shards cannot prune by, which
 * costs the planner milliseconds per value, and whose generated code exceeds the JVM's 64 KB
 * method limit at a few thousand values. The meaning is Calcite's own for short lists,
 * NULLs included: {@code x NOT IN (1, NULL)} is unknown for x = 2, as SQL requires. Lists of
 * rows and lists of sub-queries are left to Calcite.
 */
class InListConverter extends SqlToRelConverter {
  /** Lists shorter than this are Calcite's default threshold, converted the same way. */
  private static final int MIN_VALUES = 20;

  InListConverter(RelOptTable.ViewExpander viewExpander, SqlValidator validator,
      Prepare.CatalogReader catalogReader, RelOptCluster cluster,
      SqlRexConvertletTable convertletTable, Config config) {
    super(viewExpander, validator, catalogReader, cluster, convertletTable, config);
  }

  @Override protected @Nullable RexNode convertExtendedExpression(SqlNode node,
      Blackboard bb) {
    final boolean negated = node.getKind() == SqlKind.NOT_IN
        || isQuantified(node, SqlKind.ALL, SqlKind.NOT_EQUALS);
    if (!(node.getKind() == SqlKind.IN || negated
            || isQuantified(node, SqlKind.SOME, SqlKind.EQUALS))
        || !(node instanceof SqlCall call) || call.operandCount() != 2
        || !(call.operand(1) instanceof SqlNodeList list) || list.size() < MIN_VALUES
        || call.operand(0).getKind() == SqlKind.ROW
        || !list.stream().allMatch(InListConverter::isValue)) {
      return null;
    }
    final SqlNode probe = call.operand(0);
    final List<RexNode> comparisons = new ArrayList<>(list.size());
    for (SqlNode value : list) {
      comparisons.add(bb.convertExpression(
          SqlStdOperatorTable.EQUALS.createCall(value.getParserPosition(), probe, value)));
    }
    final RexNode in = inOf(comparisons);
    return negated ? rexBuilder.makeCall(SqlStdOperatorTable.NOT, in) : in;
  }

  /** The OR of the comparisons, with those of the list's operand with a literal folded into
   * one search (what Calcite's simplifier makes of them, built in O(n log n) rather than
   * found in an OR of thousands). */
  private RexNode inOf(List<RexNode> comparisons) {
    RexNode operand = null;
    final List<RexNode> literals = new ArrayList<>(comparisons.size());
    final List<RexNode> others = new ArrayList<>();
    for (RexNode comparison : comparisons) {
      if (comparison instanceof RexCall equals && equals.getKind() == SqlKind.EQUALS
          && equals.getOperands().get(1) instanceof RexLiteral literal
          && (operand == null || operand.equals(equals.getOperands().get(0)))) {
        operand = equals.getOperands().get(0);
        literals.add(literal);
      } else {
        others.add(comparison);
      }
    }
    if (operand != null && literals.size() > 1) {
      final RexNode search = rexBuilder.makeIn(operand, literals);
      if (search.getKind() == SqlKind.SEARCH) {
        others.add(0, search);
        return RexUtil.composeDisjunction(rexBuilder, others);
      }
    }
    return RexUtil.composeDisjunction(rexBuilder, comparisons);
  }

  /** Whether the node is {@code x op SOME (list)} ({@code ANY} is SOME's synonym) or
   * {@code x op ALL (list)}, as {@code quantifier} says. */
  private static boolean isQuantified(SqlNode node, SqlKind quantifier, SqlKind comparison) {
    return node.getKind() == quantifier && node instanceof SqlCall call
        && call.getOperator() instanceof SqlQuantifyOperator quantify
        && quantify.comparisonKind == comparison;
  }

  /** A list element this conversion takes: anything but a sub-query or a row. */
  private static boolean isValue(SqlNode node) {
    return node.getKind() != SqlKind.ROW && !node.getKind().belongsTo(SqlKind.QUERY);
  }
}
