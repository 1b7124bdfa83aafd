package io.shardset.calcite.prepare;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's conversion of SQL to relational expressions, with a cast of a number that has a
 * fraction to an integer type rounding it, half away from zero, as PostgreSQL, MariaDB and H2
 * do, where Calcite's own cast truncates: {@code CAST(4.7 AS INTEGER)} is 5 whether a shard
 * or ShardSet computes it, and an INSERT of 4.7 into an INTEGER column stores 5 on every
 * backend. Casts the validator adds to make a value fit its column are converted here too.
 */
final class RoundingCasts implements SqlRexConvertletTable {
  static final RoundingCasts INSTANCE = new RoundingCasts();

  private RoundingCasts() {
  }

  @Override public @Nullable SqlRexConvertlet get(SqlCall call) {
    final SqlRexConvertlet standard = StandardConvertletTable.INSTANCE.get(call);
    if (standard == null || call.getKind() != SqlKind.CAST) {
      return standard;
    }
    return (context, cast) -> rounded(standard.convertCall(context, cast),
        context.getRexBuilder());
  }

  /** The cast, its operand rounded first when it casts a fraction to an integer. */
  static RexNode rounded(RexNode converted, RexBuilder builder) {
    if (!(converted instanceof RexCall cast) || converted.getKind() != SqlKind.CAST
        || !SqlTypeName.INT_TYPES.contains(cast.getType().getSqlTypeName())) {
      return converted;
    }
    final RexNode operand = cast.getOperands().get(0);
    if (!hasFraction(operand.getType())) {
      return converted;
    }
    return builder.makeCast(cast.getType(), builder.makeCall(SqlStdOperatorTable.ROUND,
        operand), false, false);
  }

  private static boolean hasFraction(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getScale() > 0
        || SqlTypeFamily.APPROXIMATE_NUMERIC.contains(type);
  }
}
