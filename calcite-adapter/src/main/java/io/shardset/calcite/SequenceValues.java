package io.shardset.calcite;

import io.shardset.sequence.GlobalSequence;

import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * The next value of a global sequence, as plans compute it: {@code NEXT VALUE FOR seq}, and
 * the default of a column that takes a sequence's values, become a call of
 * {@link #NEXT_VALUE} with the sequence's id, evaluated each time a row is made (never while
 * planning: the function is not deterministic, and no shard is asked to evaluate it).
 */
public final class SequenceValues {
  /** The function plans call: {@code SHARDSET_NEXT_VALUE('schema.name#n')}. */
  public static final SqlOperator NEXT_VALUE = new NextValueFunction();

  private SequenceValues() {
  }

  /** The call of the next value of a sequence. */
  public static RexNode call(RexBuilder builder, GlobalSequence sequence) {
    return builder.makeCall(NEXT_VALUE, builder.makeLiteral(sequence.id()));
  }

  /** Whether an expression is such a call. */
  public static boolean isCall(RexNode node) {
    return node instanceof RexCall call && call.getOperator() == NEXT_VALUE;
  }

  /**
   * The next value of the sequence of that id, called by the code Calcite generates: the
   * generated code names a class and a method, so the process's runtime is looked up here.
   *
   * @throws IllegalStateException carrying the {@link SQLException} (its state and message)
   *     when no block can be taken
   */
  public static long next(String id) {
    try {
      return ShardSetRuntime.get().sequences().byId(id).next();
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** The function, never evaluated while planning. */
  private static final class NextValueFunction extends SqlUserDefinedFunction {
    NextValueFunction() {
      super(new SqlIdentifier("SHARDSET_NEXT_VALUE", SqlParserPos.ZERO),
          SqlKind.OTHER_FUNCTION, ReturnTypes.BIGINT,
          (binding, returnType, operandTypes) -> Arrays.fill(operandTypes,
              binding.getTypeFactory().createSqlType(SqlTypeName.VARCHAR)),
          OperandTypes.operandMetadata(List.of(SqlTypeFamily.CHARACTER),
              types -> List.of(types.createSqlType(SqlTypeName.VARCHAR)), i -> "ID",
              i -> false),
          new OneParameterFunction("ID", SqlTypeName.VARCHAR,
              (RexToLixTranslator translator, RexCall call, RexImpTable.NullAs nullAs) ->
                  Expressions.call(SequenceValues.class, "next",
                      translator.translateList(call.getOperands()).get(0))));
    }

    @Override public boolean isDeterministic() {
      return false;
    }
  }
}
