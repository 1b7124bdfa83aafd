package io.shardset.calcite.jdbc;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The parameters of a statement whose values are stored in a column: those an INSERT's
 * {@code VALUES} rows or select list, an UPDATE's {@code SET} or a MERGE's actions give a column
 * as they are. A value bound to one of them is assigned (rounded to the column's integers,
 * refused when it does not fit); any other parameter is compared or computed with, so its value
 * stays what the client bound: {@code K = ?} with 42.5 matches no integer key.
 */
final class AssignedParameters {
  private AssignedParameters() {
  }

  /**
   * The indexes (from 0) of the parameters of {@code sql} that are assigned to columns; null
   * when the statement does not parse (Calcite reports why when it runs it).
   */
  static @Nullable Set<Integer> of(String sql, CalciteConnectionConfig config) {
    SqlParser.Config parserConfig = SqlParser.config()
        .withQuotedCasing(config.quotedCasing())
        .withUnquotedCasing(config.unquotedCasing())
        .withQuoting(config.quoting())
        .withConformance(config.conformance())
        .withCaseSensitive(config.caseSensitive());
    final SqlParserImplFactory factory = config.parserFactory(SqlParserImplFactory.class, null);
    if (factory != null) {
      parserConfig = parserConfig.withParserFactory(factory);
    }
    final SqlNode statement;
    try {
      statement = SqlParser.create(sql, parserConfig).parseStmt();
    } catch (SqlParseException e) {
      return null;
    }
    final Set<Integer> assigned = new HashSet<>();
    collect(statement, assigned);
    return assigned;
  }

  private static void collect(@Nullable SqlNode statement, Set<Integer> assigned) {
    if (statement instanceof SqlInsert insert) {
      source(insert.getSource(), assigned);
    } else if (statement instanceof SqlUpdate update) {
      values(update.getSourceExpressionList(), assigned);
    } else if (statement instanceof SqlMerge merge) {
      collect(merge.getUpdateCall(), assigned);
      collect(merge.getInsertCall(), assigned);
    }
  }

  /** An INSERT's rows: each VALUES row's items, or a query's select list. */
  private static void source(SqlNode source, Set<Integer> assigned) {
    if (source.getKind() == SqlKind.VALUES) {
      for (SqlNode row : ((SqlBasicCall) source).getOperandList()) {
        if (row instanceof SqlCall call && call.getKind() == SqlKind.ROW) {
          values(call.getOperandList(), assigned);
        } else {
          values(List.of(row), assigned);
        }
      }
    } else if (source instanceof SqlSelect select) {
      values(select.getSelectList(), assigned);
    }
  }

  private static void values(@Nullable Iterable<? extends @Nullable SqlNode> items,
      Set<Integer> assigned) {
    if (items == null) {
      return;
    }
    for (SqlNode item : items) {
      if (item instanceof SqlDynamicParam param) {
        assigned.add(param.getIndex());
      } else if (item != null && item.getKind() == SqlKind.AS) {
        values(List.of(((SqlCall) item).operand(0)), assigned);
      }
    }
  }
}
