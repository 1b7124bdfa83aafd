package io.shardset.calcite.prepare;

import io.shardset.calcite.SequenceTable;
import io.shardset.calcite.SequenceValues;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * ShardSet's conversion of SQL calls to row expressions: {@code NEXT VALUE FOR} a global
 * sequence becomes a call of {@link SequenceValues#NEXT_VALUE} (Calcite's own keeps a counter
 * per thread), and casts round as {@link RoundingCasts} says.
 */
final class ShardConvertlets implements SqlRexConvertletTable {
  static final ShardConvertlets INSTANCE = new ShardConvertlets();

  private ShardConvertlets() {
  }

  @Override public @Nullable SqlRexConvertlet get(SqlCall call) {
    final SqlRexConvertlet rounding = RoundingCasts.INSTANCE.get(call);
    if (call.getKind() != SqlKind.NEXT_VALUE || rounding == null) {
      return rounding;
    }
    return (context, next) -> {
      final SequenceTable sequence = sequence(context, next);
      return sequence == null ? rounding.convertCall(context, next)
          : SequenceValues.call(context.getRexBuilder(), sequence.sequence());
    };
  }

  /** The global sequence a {@code NEXT VALUE FOR} names; null for another kind of sequence. */
  private static @Nullable SequenceTable sequence(SqlRexContext context, SqlCall next) {
    if (!(next.operand(0) instanceof SqlIdentifier id)) {
      return null;
    }
    final SqlValidatorTable table = context.getValidator().getCatalogReader().getTable(id.names);
    return table == null ? null : table.unwrap(SequenceTable.class);
  }
}
