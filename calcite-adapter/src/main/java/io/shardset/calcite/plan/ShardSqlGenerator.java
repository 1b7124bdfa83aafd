package io.shardset.calcite.plan;

import io.shardset.calcite.ShardSite;
import io.shardset.calcite.ShardTable;

import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.rel2sql.RelToSqlConverter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.util.SqlString;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the work pushed into a shard scan as SQL in each shard's own dialect.
 *
 * <p>The pushed tree is written over the logical table; for each shard it is re-rooted on a
 * scan of that shard's physical table (its name and its column names, which may differ in
 * case) and given to Calcite's {@link RelToSqlConverter}. Shards that share a dialect and a
 * physical table share one text, so the work does not grow with the number of shards.
 */
final class ShardSqlGenerator {
  private ShardSqlGenerator() {
  }

  /** Identifies shards that get the same text. Dialects are shared per kind of database. */
  private record Layout(SqlDialect dialect, List<String> tableName, List<String> columns) {
    @Override public boolean equals(Object o) {
      return o instanceof Layout that
          && dialect == that.dialect
          && tableName.equals(that.tableName)
          && columns.equals(that.columns);
    }

    @Override public int hashCode() {
      return System.identityHashCode(dialect) * 31 + tableName.hashCode();
    }
  }

  static List<RenderedSql> render(ShardTable table, RelNode pushed) {
    final Map<Layout, BitSet> groups = new LinkedHashMap<>();
    for (int i = 0; i < table.shardCount(); i++) {
      final ShardSite site = table.site(i);
      groups.computeIfAbsent(
          new Layout(site.dialect(), site.qualifiedName(), site.physicalColumns()),
          k -> new BitSet()).set(i);
    }
    final List<RenderedSql> result = new ArrayList<>();
    groups.forEach((layout, shards) -> result.add(render(pushed, layout, shards)));
    return List.copyOf(result);
  }

  private static RenderedSql render(RelNode pushed, Layout layout, BitSet shards) {
    final RelNode physical = pushed.accept(new RelShuttleImpl() {
      @Override public RelNode visit(TableScan scan) {
        final RelDataType rowType =
            physicalRowType(scan.getRowType(), layout.columns(),
                scan.getCluster().getTypeFactory());
        return LogicalTableScan.create(scan.getCluster(),
            RelOptTableImpl.create(null, rowType, layout.tableName(), null), List.of());
      }
    });
    final SqlDialect dialect = layout.dialect();
    // One line: the text appears in EXPLAIN and in shard logs.
    final SqlString sql = new RelToSqlConverter(dialect).visitRoot(physical).asStatement()
        .toSqlString(c -> c.withDialect(dialect)
            .withAlwaysUseParentheses(false)
            .withSelectListItemsOnSeparateLines(false)
            .withUpdateSetListNewline(false)
            .withClauseStartsLine(false)
            .withClauseEndsLine(false)
            .withIndentation(0));
    final List<Integer> params = sql.getDynamicParameters();
    return new RenderedSql(shards, sql.getSql(), params == null ? List.of() : params);
  }

  /** The logical row type with the shard's physical column names. */
  private static RelDataType physicalRowType(RelDataType logical, List<String> columns,
      RelDataTypeFactory typeFactory) {
    final RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (RelDataTypeField field : logical.getFieldList()) {
      builder.add(columns.get(field.getIndex()), field.getType());
    }
    return builder.build();
  }
}
