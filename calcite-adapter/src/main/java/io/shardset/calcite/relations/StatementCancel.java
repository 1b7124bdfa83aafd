package io.shardset.calcite.relations;

import io.shardset.calcite.OneParameterFunction;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.execution.StatementTracker;
import io.shardset.execution.TrackedStatement;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Arrays;
import java.util.List;

/**
 * {@code SHARDSET.CANCEL(id)}: cancels the running statement numbered {@code id} (a number
 * from {@code SHARDSET.STATEMENTS}) as {@link java.sql.Statement#cancel()} would, which stops
 * each of its shard statements; true if it was running and the caller may cancel it (its own
 * user's, or any user's on a connection that sees every user's statements), false otherwise.
 * So a remote client, whose protocol carries no cancel, stops a runaway query from a second
 * connection.
 *
 * <p>A function of its own, not a schema's: it must run when the statement runs, never when
 * it is planned, so it is not deterministic, which schema functions always are.
 */
public final class StatementCancel {
  /** The operator table that holds the function. */
  public static final SqlOperatorTable OPERATORS = new Operators();

  private static final List<String> NAME = List.of(StatementTables.SCHEMA, "CANCEL");

  private static final SqlOperator FUNCTION = new CancelFunction();

  private StatementCancel() {
  }

  /**
   * Cancels the statement, called by the code Calcite generates for the function.
   *
   * @param root the calling statement's data context
   * @param id the number of the statement to cancel, or null
   */
  public static boolean cancel(DataContext root, @Nullable Object id) {
    if (!(id instanceof Number number)) {
      return false;
    }
    final StatementTracker tracker =
        ShardSetRuntime.get().execution().scanServices().statements();
    final TrackedStatement caller = StatementTables.caller(tracker, root);
    if (caller == null) {
      return false;
    }
    caller.introspective();
    return tracker.cancel(number.longValue(), caller);
  }

  /** The function, never evaluated while planning. */
  private static final class CancelFunction extends SqlUserDefinedFunction {
    CancelFunction() {
      super(new SqlIdentifier(NAME, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
          ReturnTypes.BOOLEAN_NOT_NULL,
          (binding, returnType, operandTypes) -> Arrays.fill(operandTypes,
              binding.getTypeFactory().createSqlType(SqlTypeName.BIGINT)),
          OperandTypes.operandMetadata(List.of(SqlTypeFamily.NUMERIC),
              types -> List.of(types.createSqlType(SqlTypeName.BIGINT)), i -> "ID", i -> false),
          new OneParameterFunction("ID", SqlTypeName.BIGINT,
              (RexToLixTranslator translator, RexCall call, RexImpTable.NullAs nullAs) ->
                  Expressions.call(StatementCancel.class, "cancel", translator.getRoot(),
                      Expressions.box(translator.translateList(call.getOperands()).get(0)))));
    }

    @Override public boolean isDeterministic() {
      return false;
    }
  }

  /** Finds the function by its two-part name, in any case. */
  private static final class Operators implements SqlOperatorTable {
    @Override public void lookupOperatorOverloads(SqlIdentifier opName,
        @Nullable SqlFunctionCategory category, SqlSyntax syntax,
        List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
      if (opName.names.size() == 2 && opName.names.get(0).equalsIgnoreCase(NAME.get(0))
          && opName.names.get(1).equalsIgnoreCase(NAME.get(1))
          && (syntax == SqlSyntax.FUNCTION || syntax == SqlSyntax.FUNCTION_ID)) {
        operatorList.add(FUNCTION);
      }
    }

    @Override public List<SqlOperator> getOperatorList() {
      return List.of(FUNCTION);
    }
  }
}
