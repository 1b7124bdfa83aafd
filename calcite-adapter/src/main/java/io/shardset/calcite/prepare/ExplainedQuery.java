package io.shardset.calcite.prepare;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Where the query of an {@code EXPLAIN} statement starts in the statement's text: the query
 * is the rest of the text from there, as a client would send it to run it.
 */
final class ExplainedQuery {
  private ExplainedQuery() {
  }

  /**
   * The text of the query {@code explain} (parsed from {@code sql}) explains, from the first
   * position the parser gave any part of it to the end; null if the parser gave none. A
   * caller parses it again and compares: a query in parentheses, say, starts before its
   * first node.
   */
  static @Nullable String of(String sql, SqlExplain explain) {
    final FirstPosition first = new FirstPosition();
    explain.getExplicandum().accept(first);
    if (first.line == Integer.MAX_VALUE) {
      return null;
    }
    final int start = SqlParserUtil.lineColToIndex(sql, first.line, first.column);
    return start > 0 && start < sql.length() ? sql.substring(start) : null;
  }

  /** The text before the query, {@code EXPLAIN PLAN ... FOR }. */
  static String prefix(String sql, String query) {
    return sql.substring(0, sql.length() - query.length());
  }

  /** Finds the first line and column the parser gave a node of a tree. */
  private static final class FirstPosition extends SqlBasicVisitor<Void> {
    int line = Integer.MAX_VALUE;
    int column = Integer.MAX_VALUE;

    /** Notes a node's position; null, as the visitor's leaves answer. */
    private @Nullable Void see(SqlNode node) {
      final SqlParserPos pos = node.getParserPosition();
      if (pos.getLineNum() > 0 && (pos.getLineNum() < line
          || pos.getLineNum() == line && pos.getColumnNum() < column)) {
        // Line 0 is a node the parser made up, such as an implicit alias.
        line = pos.getLineNum();
        column = pos.getColumnNum();
      }
      return null;
    }

    @Override public Void visit(SqlCall call) {
      see(call);
      return super.visit(call);
    }

    @Override public Void visit(SqlNodeList nodeList) {
      see(nodeList);
      return super.visit(nodeList);
    }

    @Override public Void visit(SqlIdentifier id) {
      return see(id);
    }

    @Override public Void visit(SqlLiteral literal) {
      return see(literal);
    }

    @Override public Void visit(SqlDynamicParam param) {
      return see(param);
    }

    @Override public Void visit(SqlDataTypeSpec type) {
      return see(type);
    }

    @Override public Void visit(SqlIntervalQualifier qualifier) {
      return see(qualifier);
    }
  }
}
