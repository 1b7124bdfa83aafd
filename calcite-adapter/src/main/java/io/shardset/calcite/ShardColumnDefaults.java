package io.shardset.calcite;

import io.shardset.model.ColumnInfo;
import io.shardset.sequence.GlobalSequence;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

import java.util.List;
import java.util.Map;

/**
 * What a sharded table's columns hold when an INSERT leaves them out: for a column that takes
 * a global sequence's values (the model's {@code columnSequences}), the sequence's next value;
 * for a column the shards fill themselves (a DEFAULT, an identity, a generated column;
 * {@link ColumnInfo#defaulted()}) Calcite's {@code DEFAULT}, which the write reads as "leave it
 * out of the shard's INSERT", so that the shard fills it; for any other, NULL, as Calcite's
 * own. The validator then accepts an INSERT that leaves out a NOT NULL column with a default.
 */
final class ShardColumnDefaults extends NullInitializerExpressionFactory {
  private final List<ColumnInfo> columns;
  private final Map<Integer, GlobalSequence> sequences;

  /**
   * Defaults for these columns.
   *
   * @param sequences the sequence of each column that takes one's values, by position
   */
  ShardColumnDefaults(List<ColumnInfo> columns, Map<Integer, GlobalSequence> sequences) {
    this.columns = List.copyOf(columns);
    this.sequences = Map.copyOf(sequences);
  }

  @Override public ColumnStrategy generationStrategy(RelOptTable table, int iColumn) {
    return columns.get(iColumn).defaulted() || sequences.containsKey(iColumn)
        ? ColumnStrategy.DEFAULT : super.generationStrategy(table, iColumn);
  }

  @Override public RexNode newColumnDefaultValue(RelOptTable table, int iColumn,
      InitializerContext context) {
    final GlobalSequence sequence = sequences.get(iColumn);
    if (sequence != null) {
      final RexNode next = SequenceValues.call(context.getRexBuilder(), sequence);
      final RelDataType type = table.getRowType().getFieldList().get(iColumn).getType();
      return context.getRexBuilder().makeCast(type, next, true, false);
    }
    if (!columns.get(iColumn).defaulted()) {
      return super.newColumnDefaultValue(table, iColumn, context);
    }
    final RelDataType type = context.getRexBuilder().getTypeFactory().createTypeWithNullability(
        table.getRowType().getFieldList().get(iColumn).getType(), true);
    // Evaluated, it is NULL; the write leaves the column out instead (ShardTableModify).
    return context.getRexBuilder().makeCall(type, SqlStdOperatorTable.DEFAULT, List.of());
  }
}
