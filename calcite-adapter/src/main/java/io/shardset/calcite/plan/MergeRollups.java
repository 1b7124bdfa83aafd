package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.MergedMinMax;

import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Chooses how the aggregate above the scan combines the shards' partial MIN and MAX: as the
 * shards order values (see {@link MergedMinMax}) where Calcite's own MIN and MAX order them
 * otherwise, and with Calcite's rollup everywhere else.
 */
final class MergeRollups {
  private static final SqlAggFunction CODE_POINT_MAX =
      function("SHARDSET_MAX", MergedMinMax.CodePointMax.class);
  private static final SqlAggFunction CODE_POINT_MIN =
      function("SHARDSET_MIN", MergedMinMax.CodePointMin.class);
  private static final SqlAggFunction NAN_HIGH_MAX =
      function("SHARDSET_MAX", MergedMinMax.NanHighMax.class);
  private static final SqlAggFunction NAN_HIGH_MIN =
      function("SHARDSET_MIN", MergedMinMax.NanHighMin.class);

  private MergeRollups() {
  }

  /** The function that combines the partial results of {@code call} over {@code table}. */
  static @Nullable SqlAggFunction rollup(AggregateCall call, ShardTable table) {
    final SqlKind kind = call.getAggregation().getKind();
    if (kind == SqlKind.MAX || kind == SqlKind.MIN) {
      final RelDataType type = call.getType();
      final boolean max = kind == SqlKind.MAX;
      if (type.getSqlTypeName() == SqlTypeName.DOUBLE) {
        return max ? NAN_HIGH_MAX : NAN_HIGH_MIN;
      }
      if (SqlTypeFamily.CHARACTER.contains(type) && type.getSqlTypeName() == SqlTypeName.VARCHAR
          && noH2(table)) {
        return max ? CODE_POINT_MAX : CODE_POINT_MIN;
      }
    }
    return call.getAggregation().getRollup();
  }

  /** Whether no shard is H2, which compares strings by UTF-16 code units as Java does;
   * PostgreSQL and MariaDB shards compare code points under the byte-wise collations
   * ShardSet merges text for. */
  private static boolean noH2(ShardTable table) {
    for (int i = 0; i < table.shardCount(); i++) {
      if (MergePolicy.isH2(table.dialect(i))) {
        return false;
      }
    }
    return true;
  }

  private static SqlAggFunction function(String name, Class<?> implementation) {
    return new SqlUserDefinedAggFunction(new SqlIdentifier(name, SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0_NULLABLE, null, null,
        AggregateFunctionImpl.create(implementation), false, false, Optionality.FORBIDDEN);
  }
}
