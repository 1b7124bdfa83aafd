package io.shardset.calcite.jdbc;

import io.shardset.calcite.relations.StatementCancel;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Calcite's validator, except that a {@code ?} whose place gives it no type ({@code SELECT ?},
 * {@code ? IS NULL}, {@code ? = ?}) is a nullable VARCHAR, as PostgreSQL types such a parameter
 * as text, where Calcite refuses the statement ("Illegal use of dynamic parameter"). A
 * parameter with a type from its place (a column it is compared with, a CAST) keeps it.
 */
final class ParameterTypingValidator extends CalciteSqlValidator {
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

  @Override protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope,
      SqlNode node) {
    if (node instanceof SqlDynamicParam && inferredType.equals(unknownType)) {
      super.inferUnknownTypes(typeFactory.createSqlType(SqlTypeName.VARCHAR), scope, node);
    } else {
      super.inferUnknownTypes(inferredType, scope, node);
    }
  }
}
