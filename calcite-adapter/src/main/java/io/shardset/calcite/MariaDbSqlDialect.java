package io.shardset.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.dialect.MysqlSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * MySQL's dialect as MariaDB shard sessions read it: string literals whose backslashes mean
 * themselves, and concatenation as {@code CONCAT(...)}.
 *
 * <p>ShardSet runs every MariaDB session with {@code NO_BACKSLASH_ESCAPES} and
 * {@code PIPES_AS_CONCAT} (see {@code io.shardset.execution.ShardSessions}), so that SQL
 * reaches the shard as the standard, and Calcite, read it. The text does not rely on that
 * alone: the dialect is told whether the session it was built from reads a backslash as an
 * escape and then doubles every backslash, so a literal cannot end early whichever mode a
 * session has; and {@code CONCAT} concatenates in every mode, where {@code ||} would be a
 * logical OR without {@code PIPES_AS_CONCAT}.
 */
final class MariaDbSqlDialect extends MysqlSqlDialect {
  private final boolean backslashEscapes;

  MariaDbSqlDialect(Context context, boolean backslashEscapes) {
    super(context);
    this.backslashEscapes = backslashEscapes;
  }

  @Override public void quoteStringLiteral(StringBuilder buf, @Nullable String charsetName,
      String val) {
    super.quoteStringLiteral(buf, charsetName,
        backslashEscapes ? val.replace("\\", "\\\\") : val);
  }

  @Override public void unparseCall(SqlWriter writer, SqlCall call, int leftPrec,
      int rightPrec) {
    if (call.getOperator() == SqlStdOperatorTable.CONCAT) {
      final SqlWriter.Frame frame = writer.startFunCall("CONCAT");
      for (SqlNode operand : call.getOperandList()) {
        writer.sep(",");
        operand.unparse(writer, 0, 0);
      }
      writer.endFunCall(frame);
      return;
    }
    super.unparseCall(writer, call, leftPrec, rightPrec);
  }
}
