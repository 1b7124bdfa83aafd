package io.shardset.calcite;

import io.shardset.model.ColumnInfo;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

import java.util.List;

/**
 * What a sharded table's columns hold when an INSERT leaves them out: for a column the shards
 * fill themselves (a DEFAULT, an identity, a generated column; {@link ColumnInfo#defaulted()})
 * Calcite's {@code DEFAULT}, which the write reads as "leave it out of the shard's INSERT",
 * so that the shard fills it; for any other, NULL, as Calcite's own. The validator then
 * accepts an INSERT that leaves out a NOT NULL column with a default.
 */
final class ShardColumnDefaults extends NullInitializerExpressionFactory {
  private final List<ColumnInfo> columns;

  ShardColumnDefaults(List<ColumnInfo> columns) {
    this.columns = List.copyOf(columns);
  }

  @Override public ColumnStrategy generationStrategy(RelOptTable table, int iColumn) {
    return columns.get(iColumn).defaulted() ? ColumnStrategy.DEFAULT
        : super.generationStrategy(table, iColumn);
  }

  @Override public RexNode newColumnDefaultValue(RelOptTable table, int iColumn,
      InitializerContext context) {
    if (!columns.get(iColumn).defaulted()) {
      return super.newColumnDefaultValue(table, iColumn, context);
    }
    final RelDataType type = context.getRexBuilder().getTypeFactory().createTypeWithNullability(
        table.getRowType().getFieldList().get(iColumn).getType(), true);
    // Evaluated, it is NULL; the write leaves the column out instead (ShardTableModify).
    return context.getRexBuilder().makeCall(type, SqlStdOperatorTable.DEFAULT, List.of());
  }
}
