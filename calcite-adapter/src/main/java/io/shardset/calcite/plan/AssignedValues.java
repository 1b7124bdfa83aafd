package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The values a write computes in ShardSet (a row-by-row UPDATE's {@code SET V = V + 1}, an
 * INSERT's cast literal), made to fail where the shard's own statement would fail, rather
 * than be changed silently: Calcite's integer arithmetic wraps around on overflow (its
 * conformance has no checked arithmetic but SQL Server's and BigQuery's), and its cast of a
 * value to the column's type cuts a string to the column's length and wraps an integer
 * around, as it cuts a string parameter to its type's length. So the arithmetic is made
 * checked (an overflow fails with 22003), and the cast that narrows a string or an integer to
 * the column it is assigned to is left out, a string parameter read whole: the shard gets the
 * whole value and refuses it as its own statement would (22001 "value too long", 22003).
 * Casts to DECIMAL stay: Calcite's round as the databases do and fail when the value does not
 * fit.
 */
final class AssignedValues {
  private static final Set<SqlTypeName> INTEGERS = Set.of(SqlTypeName.TINYINT,
      SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT);

  private AssignedValues() {
  }

  /**
   * The write's input, its computation checked; the input itself when ShardSet does not
   * compute it (a scan, a {@code VALUES}).
   *
   * @param assigned the input's fields that are assigned to columns
   */
  static RelNode checked(RelNode input, List<Integer> assigned) {
    final RexBuilder rexBuilder = input.getCluster().getRexBuilder();
    final Checked checked = new Checked(rexBuilder);
    if (input instanceof EnumerableCalc calc) {
      final RexProgram program = calc.getProgram();
      final List<RexNode> projects = new ArrayList<>();
      for (int i = 0; i < program.getProjectList().size(); i++) {
        projects.add(checked.assignment(
            program.expandLocalRef(program.getProjectList().get(i)), assigned.contains(i)));
      }
      final RexLocalRef condition = program.getCondition();
      if (!checked.changed) {
        return input;
      }
      return EnumerableCalc.create(calc.getInput(), RexProgram.create(
          calc.getInput().getRowType(), projects,
          condition == null ? null : program.expandLocalRef(condition).accept(checked),
          program.getOutputRowType().getFieldNames(), rexBuilder));
    }
    if (input instanceof EnumerableProject project) {
      final List<RexNode> projects = new ArrayList<>();
      for (int i = 0; i < project.getProjects().size(); i++) {
        projects.add(checked.assignment(project.getProjects().get(i), assigned.contains(i)));
      }
      if (!checked.changed) {
        return input;
      }
      final RelDataType rowType = input.getCluster().getTypeFactory().createStructType(
          projects.stream().map(RexNode::getType).toList(),
          project.getRowType().getFieldNames());
      return EnumerableProject.create(project.getInput(), projects, rowType);
    }
    return input;
  }

  /**
   * Whether a cast from {@code from} to {@code to} can cut a string or wrap an integer: every
   * cast of a string to a type of a length (a parameter's value is as long as the client made
   * it, whatever its declared type), and of an integer to a smaller one.
   */
  private static boolean narrows(RelDataType from, RelDataType to) {
    if (SqlTypeFamily.CHARACTER.contains(from) && SqlTypeFamily.CHARACTER.contains(to)) {
      return to.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED;
    }
    return INTEGERS.contains(from.getSqlTypeName()) && INTEGERS.contains(to.getSqlTypeName())
        && rank(from.getSqlTypeName()) > rank(to.getSqlTypeName());
  }

  private static int rank(SqlTypeName integer) {
    return switch (integer) {
    case TINYINT -> 1;
    case SMALLINT -> 2;
    case INTEGER -> 3;
    default -> 4;
    };
  }

  /** Integer arithmetic made checked, and narrowing casts left out. */
  private static final class Checked extends RexShuttle {
    private final RexBuilder rexBuilder;
    private boolean changed;

    Checked(RexBuilder rexBuilder) {
      this.rexBuilder = rexBuilder;
    }

    /**
     * The expression assigned to a column (or, for another field, computed), checked, without
     * a cast that narrows it to the column.
     */
    RexNode assignment(RexNode expression, boolean assigned) {
      if (!assigned) {
        return expression.accept(this);
      }
      RexNode value = expression;
      if (value.getKind() == SqlKind.CAST
          && narrows(((RexCall) value).getOperands().get(0).getType(), value.getType())) {
        changed = true;
        value = ((RexCall) value).getOperands().get(0);
      }
      if (value instanceof RexDynamicParam parameter
          && SqlTypeFamily.CHARACTER.contains(parameter.getType())
          && parameter.getType().getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED) {
        // Calcite cuts a parameter's value to its type's length as it reads it.
        changed = true;
        final RelDataTypeFactory types = rexBuilder.getTypeFactory();
        value = rexBuilder.makeDynamicParam(types.createTypeWithNullability(
            types.createSqlType(SqlTypeName.VARCHAR), parameter.getType().isNullable()),
            parameter.getIndex());
      }
      return value.accept(this);
    }

    @Override public RexNode visitCall(RexCall call) {
      final RexNode visited = super.visitCall(call);
      final @Nullable SqlOperator checked = INTEGERS.contains(call.getType().getSqlTypeName())
          ? checkedOf(call.getKind()) : null;
      if (checked == null) {
        return visited;
      }
      changed = true;
      return rexBuilder.makeCall(call.getParserPosition(), call.getType(), checked,
          ((RexCall) visited).getOperands());
    }

    private static @Nullable SqlOperator checkedOf(SqlKind kind) {
      return switch (kind) {
      case PLUS -> SqlStdOperatorTable.CHECKED_PLUS;
      case MINUS -> SqlStdOperatorTable.CHECKED_MINUS;
      case TIMES -> SqlStdOperatorTable.CHECKED_MULTIPLY;
      case DIVIDE -> SqlStdOperatorTable.CHECKED_DIVIDE;
      case MINUS_PREFIX -> SqlStdOperatorTable.CHECKED_UNARY_MINUS;
      default -> null;
      };
    }
  }
}
