package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilder;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Rule that computes STDDEV_POP, STDDEV_SAMP, VAR_POP and VAR_SAMP of a column that is not
 * DOUBLE in DOUBLE, and casts the result back to the function's type.
 *
 * <p>Calcite reduces these functions to {@code SUM(x * x)}, {@code SUM(x)} and {@code COUNT}
 * and divides in the argument's type: a DECIMAL(12, 2) column's variance was truncated to two
 * decimals at every step (546.75 for 546.7592), an INTEGER column's to integers. Over the
 * argument cast to DOUBLE the sums, the shards' partial sums among them, and the divisions keep
 * their digits; only the final value takes the function's type, rounded half up as the
 * databases round it.
 */
public final class VarianceInDoubleRule extends RelRule<ShardRuleConfig> {
  private static final Set<SqlKind> VARIANCES = EnumSet.of(SqlKind.STDDEV_POP,
      SqlKind.STDDEV_SAMP, SqlKind.VAR_POP, SqlKind.VAR_SAMP);

  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("VarianceInDoubleRule",
      b0 -> b0.operand(LogicalAggregate.class)
          .predicate(aggregate -> aggregate.getAggCallList().stream()
              .anyMatch(VarianceInDoubleRule::inexact))
          .anyInputs(),
      VarianceInDoubleRule::new);

  private VarianceInDoubleRule(ShardRuleConfig config) {
    super(config);
  }

  /** Whether Calcite would compute this call in a type that drops digits. */
  static boolean inexact(AggregateCall call) {
    return VARIANCES.contains(call.getAggregation().getKind())
        && call.getType().getSqlTypeName() != SqlTypeName.DOUBLE
        && call.getArgList().size() == 1;
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final LogicalAggregate aggregate = call.rel(0);
    final RelBuilder b = call.builder();
    final RexBuilder rexBuilder = b.getRexBuilder();
    b.push(aggregate.getInput());
    final int fieldCount = aggregate.getInput().getRowType().getFieldCount();
    // The input's fields, then one DOUBLE copy per inexact argument.
    final List<RexNode> doubles = new ArrayList<>();
    final List<AggregateCall> calls = aggregate.getAggCallList();
    for (AggregateCall c : calls) {
      if (inexact(c)) {
        final RexNode argument = b.field(c.getArgList().get(0));
        doubles.add(rexBuilder.makeCast(rexBuilder.getTypeFactory().createTypeWithNullability(
            rexBuilder.getTypeFactory().createSqlType(SqlTypeName.DOUBLE),
            argument.getType().isNullable()), argument));
      }
    }
    b.projectPlus(doubles);
    final List<RelBuilder.AggCall> aggCalls = new ArrayList<>();
    int next = fieldCount;
    for (AggregateCall c : calls) {
      if (inexact(c)) {
        aggCalls.add(b.aggregateCall(c.getAggregation(), b.field(next++))
            .distinct(c.isDistinct())
            .filter(c.filterArg < 0 ? null : b.field(c.filterArg))
            .as(c.getName()));
      } else {
        aggCalls.add(b.aggregateCall(c));
      }
    }
    b.aggregate(b.groupKey(aggregate.getGroupSet(), aggregate.getGroupSets()), aggCalls);
    // Back to the aggregate's own row type: each variance cast to the function's type.
    final List<RexNode> fields = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    for (RelDataTypeField field : aggregate.getRowType().getFieldList()) {
      final RexNode value = b.field(field.getIndex());
      final RelDataType type = field.getType();
      fields.add(value.getType().equals(type) ? value : toType(rexBuilder, value, type));
      names.add(field.getName());
    }
    b.project(fields, names, true);
    call.transformTo(b.build());
  }

  /**
   * A DOUBLE value as the function's type. Calcite's CAST to an exact type truncates
   * (1471.8467 becomes 1471.84) where databases round, so the value is first rounded half up
   * to the type's scale.
   */
  private static RexNode toType(RexBuilder rexBuilder, RexNode value, RelDataType type) {
    if (!SqlTypeUtil.isExactNumeric(type)) {
      return rexBuilder.makeCast(type, value);
    }
    final int scale = SqlTypeUtil.isDecimal(type) ? type.getScale() : 0;
    final RexNode rounded = rexBuilder.makeCall(SqlStdOperatorTable.ROUND, value,
        rexBuilder.makeExactLiteral(BigDecimal.valueOf(scale)));
    return rexBuilder.makeCast(type, rounded);
  }
}
