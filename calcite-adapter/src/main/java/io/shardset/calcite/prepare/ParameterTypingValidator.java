package io.shardset.calcite.prepare;

import io.shardset.calcite.guard.StatementRefusedException;
import io.shardset.calcite.relations.StatementCancel;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.util.NlsString;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Calcite's validator, except that a {@code ?} whose place gives it no type ({@code SELECT ?},
 * {@code ? IS NULL}, {@code ? = ?}) is a nullable VARCHAR, as PostgreSQL types such a parameter
 * as text, where Calcite refuses the statement ("Illegal use of dynamic parameter"). A
 * parameter with a type from its place (a column it is compared with, a CAST) keeps it.
 */
final class ParameterTypingValidator extends CalciteSqlValidator {
  /** SQLState of a string too long for its column (string data, right truncation). */
  static final String VALUE_TOO_LONG = "22001";

  private ParameterTypingValidator(SqlOperatorTable operators, CalciteCatalogReader catalogReader,
      JavaTypeFactory typeFactory, Config config) {
    super(operators, catalogReader, typeFactory, config);
  }

  /**
   * A validator configured as Calcite's statement preparation configures its own (the
   * connection's operator table and catalog, its conformance and null collation), which is
   * private to {@code CalcitePrepareImpl}.
   */
  static SqlValidator create(CalcitePrepare.Context context, CalciteCatalogReader catalogReader,
      UnaryOperator<SqlValidator.Config> configTransform) {
    final CalciteConnectionConfig connection = context.config();
    final SqlOperatorTable operators = SqlOperatorTables.chain(List.of(
        connection.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()),
        StatementCancel.OPERATORS, catalogReader));
    final SqlValidator.Config config = configTransform.apply(SqlValidator.Config.DEFAULT
        .withLenientOperatorLookup(connection.lenientOperatorLookup())
        .withConformance(connection.conformance())
        .withDefaultNullCollation(connection.defaultNullCollation())
        .withIdentifierExpansion(true));
    return new ParameterTypingValidator(operators, catalogReader, context.getTypeFactory(),
        config);
  }

  /**
   * Refuses a string literal longer than the column it is written to (22001), as the
   * databases refuse it, where Calcite would cut it to the column's length when it converts
   * the statement; trailing spaces beyond the length are dropped, as PostgreSQL drops them.
   * Values computed at execution are left to the shards ({@code AssignedValues}).
   */
  @Override protected void checkTypeAssignment(@Nullable SqlValidatorScope sourceScope,
      SqlValidatorTable table, RelDataType sourceRowType, RelDataType targetRowType,
      SqlNode query) {
    if (query instanceof SqlInsert insert && insert.getSource().getKind() == SqlKind.VALUES) {
      for (SqlNode row : ((SqlCall) insert.getSource()).getOperandList()) {
        if (row instanceof SqlCall call && call.getKind() == SqlKind.ROW) {
          checkLengths(call.getOperandList(), targetRowType.getFieldList());
        }
      }
    } else if (query instanceof SqlUpdate update && update.getSourceExpressionList() != null) {
      // An UPDATE's target row is the table's columns, then the columns it sets.
      final List<RelDataTypeField> columns = targetRowType.getFieldList();
      final List<SqlNode> values = update.getSourceExpressionList().getList();
      checkLengths(values, columns.subList(columns.size() - values.size(), columns.size()));
    }
    super.checkTypeAssignment(sourceScope, table, sourceRowType, targetRowType, query);
  }

  /** Refuses a string literal longer than the column of the same position. */
  private static void checkLengths(List<? extends @Nullable SqlNode> values,
      List<RelDataTypeField> columns) {
    for (int i = 0; i < values.size() && i < columns.size(); i++) {
      final RelDataType column = columns.get(i).getType();
      if (!(written(values.get(i)) instanceof SqlCharStringLiteral literal)
          || !SqlTypeFamily.CHARACTER.contains(column)
          || column.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED) {
        continue;
      }
      final String value = literal.getValueAs(NlsString.class).getValue();
      final int length = column.getPrecision();
      if (value.length() > length && !value.substring(length).isBlank()) {
        throw new StatementRefusedException("value too long for column "
            + columns.get(i).getName() + " " + column.getSqlTypeName() + "(" + length
            + "): a string of " + value.length() + " characters", VALUE_TOO_LONG);
      }
    }
  }

  /**
   * The value written: the node, or the operand of the cast the validator's type coercion
   * put around it (which has the operand's position, where a cast the statement spells out
   * has its own).
   */
  private static @Nullable SqlNode written(@Nullable SqlNode node) {
    if (node instanceof SqlCall cast && cast.getKind() == SqlKind.CAST
        && cast.getParserPosition().equals(cast.operand(0).getParserPosition())) {
      return cast.operand(0);
    }
    return node;
  }

  @Override protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope,
      SqlNode node) {
    if (node instanceof SqlDynamicParam && inferredType.equals(unknownType)) {
      super.inferUnknownTypes(typeFactory.createSqlType(SqlTypeName.VARCHAR), scope, node);
    } else {
      super.inferUnknownTypes(inferredType, scope, node);
    }
  }
}
