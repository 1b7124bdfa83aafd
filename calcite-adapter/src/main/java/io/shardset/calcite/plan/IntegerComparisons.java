package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Sarg;

import com.google.common.collect.BoundType;
import com.google.common.collect.ImmutableRangeSet;
import com.google.common.collect.Range;
import com.google.common.collect.RangeSet;
import com.google.common.collect.TreeRangeSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Rewrites comparisons of an integer expression with a decimal literal, which Calcite makes by
 * casting the integer to the literal's decimal type ({@code CAST(ID AS DECIMAL(19, 1)) = 42.0}),
 * into comparisons of the integer itself with integers: {@code ID = 42}; {@code ID > 42.5} is
 * {@code ID >= 43}; {@code ID = 42.5} holds for no row.
 *
 * <p>The cast fails for integers that do not fit the decimal type (a BIGINT of 10^18 in a
 * DECIMAL(19, 1)), wherever it runs, and it hides the shard key from pruning. The rewrite keeps
 * each comparison's value for every row, NULL included.
 */
final class IntegerComparisons {
  private IntegerComparisons() {
  }

  /** The condition with such comparisons rewritten and simplified; itself if it has none. */
  static RexNode rewrite(RexNode condition, RexBuilder rexBuilder,
      @Nullable RexExecutor executor) {
    final RexNode rewritten = condition.accept(new RexShuttle() {
      @Override public RexNode visitCall(RexCall call) {
        final RexCall visited = (RexCall) super.visitCall(call);
        final RexNode search = asSearch(visited, rexBuilder);
        return search == null ? visited : search;
      }
    });
    if (rewritten == condition) {
      return condition;
    }
    // Simplify turns a search of integers into plain comparisons, and one that no integer
    // satisfies into FALSE (or what NULL makes of it).
    return new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY,
        executor == null ? RexUtil.EXECUTOR : executor).simplifyUnknownAsFalse(rewritten);
  }

  /** {@code SEARCH(x, integers)} for a comparison or search of {@code CAST(x AS DECIMAL)}
   * with decimal literals, where x is an integer; null for any other expression. */
  private static @Nullable RexNode asSearch(RexCall call, RexBuilder rexBuilder) {
    final SqlKind kind = call.getKind();
    if (call.getOperands().size() != 2) {
      return null;
    }
    RexNode left = call.getOperands().get(0);
    RexNode right = call.getOperands().get(1);
    SqlKind op = kind;
    if (left instanceof RexLiteral && kind != SqlKind.SEARCH) {
      final RexNode swap = left;
      left = right;
      right = swap;
      op = kind.reverse();
    }
    final RexNode integer = castIntegerOperand(left);
    if (integer == null || !(right instanceof RexLiteral literal)) {
      return null;
    }
    final Sarg<BigDecimal> sarg;
    if (op == SqlKind.SEARCH) {
      // The operand is a DECIMAL, so the search's values are BigDecimals.
      @SuppressWarnings("unchecked")
      final Sarg<BigDecimal> decimals = literal.getValueAs(Sarg.class);
      if (decimals == null) {
        return null;
      }
      sarg = Sarg.of(decimals.nullAs, integers(decimals.rangeSet));
    } else {
      final BigDecimal value = literal.getValueAs(BigDecimal.class);
      final Range<BigDecimal> range = value == null ? null : range(op, value);
      if (range == null) {
        return null;
      }
      sarg = Sarg.of(RexUnknownAs.UNKNOWN, integers(TreeRangeSet.create(
          op == SqlKind.NOT_EQUALS
              ? ImmutableRangeSet.of(Range.singleton(value)).complement()
              : ImmutableRangeSet.of(range))));
    }
    if (!fits(sarg, integer.getType())) {
      return null;
    }
    return rexBuilder.makeCall(SqlStdOperatorTable.SEARCH, integer,
        rexBuilder.makeSearchArgumentLiteral(sarg, integer.getType()));
  }

  /** The operand of {@code CAST(x AS DECIMAL(p, s))} with s > 0 and x an integer; else
   * null. */
  private static @Nullable RexNode castIntegerOperand(RexNode node) {
    if (node.getKind() != SqlKind.CAST || !(node instanceof RexCall cast)
        || cast.getType().getSqlTypeName() != SqlTypeName.DECIMAL
        || cast.getType().getScale() <= 0) {
      return null;
    }
    final RexNode operand = cast.getOperands().get(0);
    final RelDataType type = operand.getType();
    return SqlTypeName.INT_TYPES.contains(type.getSqlTypeName())
        || type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getScale() == 0
        ? operand : null;
  }

  /** The values that satisfy {@code x op value}; null for another operator. */
  private static @Nullable Range<BigDecimal> range(SqlKind op, BigDecimal value) {
    switch (op) {
    case EQUALS:
      return Range.singleton(value);
    case NOT_EQUALS:
      return Range.all(); // replaced by the complement of the point
    case LESS_THAN:
      return Range.lessThan(value);
    case LESS_THAN_OR_EQUAL:
      return Range.atMost(value);
    case GREATER_THAN:
      return Range.greaterThan(value);
    case GREATER_THAN_OR_EQUAL:
      return Range.atLeast(value);
    default:
      return null;
    }
  }

  /** The integers of a set of decimal ranges, as closed ranges of integers. */
  private static RangeSet<BigDecimal> integers(RangeSet<BigDecimal> decimals) {
    final TreeRangeSet<BigDecimal> integers = TreeRangeSet.create();
    for (Range<BigDecimal> range : decimals.asRanges()) {
      BigDecimal lower = null;
      BigDecimal upper = null;
      if (range.hasLowerBound()) {
        lower = range.lowerBoundType() == BoundType.CLOSED
            ? range.lowerEndpoint().setScale(0, RoundingMode.CEILING)
            : range.lowerEndpoint().setScale(0, RoundingMode.FLOOR).add(BigDecimal.ONE);
      }
      if (range.hasUpperBound()) {
        upper = range.upperBoundType() == BoundType.CLOSED
            ? range.upperEndpoint().setScale(0, RoundingMode.FLOOR)
            : range.upperEndpoint().setScale(0, RoundingMode.CEILING).subtract(BigDecimal.ONE);
      }
      if (lower != null && upper != null) {
        if (lower.compareTo(upper) <= 0) {
          integers.add(Range.closed(lower, upper));
        }
      } else if (lower != null) {
        integers.add(Range.atLeast(lower));
      } else if (upper != null) {
        integers.add(Range.atMost(upper));
      } else {
        integers.add(Range.all());
      }
    }
    return integers;
  }

  /** Whether every bound of the search is a value of the integer type, so that its literals
   * can be written in that type. */
  private static boolean fits(Sarg<BigDecimal> sarg, RelDataType type) {
    final BigDecimal max = maxValue(type);
    for (Range<BigDecimal> range : sarg.rangeSet.asRanges()) {
      if (range.hasLowerBound() && range.lowerEndpoint().abs().compareTo(max) > 0
          || range.hasUpperBound() && range.upperEndpoint().abs().compareTo(max) > 0) {
        return false;
      }
    }
    return true;
  }

  private static BigDecimal maxValue(RelDataType type) {
    switch (type.getSqlTypeName()) {
    case TINYINT:
      return BigDecimal.valueOf(Byte.MAX_VALUE);
    case SMALLINT:
      return BigDecimal.valueOf(Short.MAX_VALUE);
    case INTEGER:
      return BigDecimal.valueOf(Integer.MAX_VALUE);
    case BIGINT:
      return BigDecimal.valueOf(Long.MAX_VALUE);
    default:
      return BigDecimal.TEN.pow(type.getPrecision()).subtract(BigDecimal.ONE);
    }
  }
}
