package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.PhysicalTable;
import io.shardset.calcite.runtime.SqlTemplate;
import io.shardset.topology.ShardSite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.parser.SqlParserPos;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes an UPDATE or DELETE pushed into the shards as one statement per physical table, in
 * each shard's dialect: the read path's SQL writer renders the SELECT of the SET expressions
 * over the filtered physical table, and its WHERE clause and select items become the DELETE's
 * condition or the UPDATE's condition and SET list. So a write computes on the shard exactly
 * what a read with the same WHERE clause would, with the same quoting and names.
 */
final class ShardDmlGenerator {
  private static final SqlParserPos POS = SqlParserPos.ZERO;

  private ShardDmlGenerator() {
  }

  /**
   * The statement of each physical table of each shard, by shard and then by physical table
   * ({@link ShardSite#tables()}); null when the SQL writer makes of the filtered table
   * something other than one flat SELECT over it (the write then goes row by row).
   *
   * @param filtered the table scan, or a Filter over it
   * @param columns the logical names of the columns set, for an UPDATE; null for a DELETE
   * @param sources the new value of each column set, over {@code filtered}'s row
   */
  static @Nullable List<List<SqlTemplate.Rendered>> render(ShardTable table, RelNode filtered,
      @Nullable List<String> columns, List<RexNode> sources) {
    final RelNode rel = columns == null ? filtered
        : LogicalProject.create(filtered, List.of(), sources, columns);
    final List<List<SqlTemplate.Rendered>> result = new ArrayList<>();
    for (int shard = 0; shard < table.shardCount(); shard++) {
      final List<SqlTemplate.Rendered> tables = new ArrayList<>();
      for (ShardSite site : table.site(shard).tables()) {
        final SqlNode statement = statement(table, site, rel, columns,
            table.dialect(shard));
        if (statement == null) {
          return null;
        }
        tables.add(SqlTemplate.render(statement, table.dialect(shard)));
      }
      result.add(tables);
    }
    return result;
  }

  private static @Nullable SqlNode statement(ShardTable table, ShardSite site, RelNode rel,
      @Nullable List<String> columns, SqlDialect dialect) {
    final PhysicalTable physical = new PhysicalTable(site.qualifiedName(),
        site.physicalColumns());
    final SqlNode written = ShardSqlGenerator.select(rel, physical, dialect);
    if (!(written instanceof SqlSelect select) || !(select.getFrom() instanceof SqlIdentifier)
        || select.getGroup() != null || select.getOrderList() != null
        || select.getFetch() != null || select.getOffset() != null) {
      return null;
    }
    final SqlIdentifier target = new SqlIdentifier(site.qualifiedName(), POS);
    if (columns == null) {
      return new SqlDelete(POS, target, select.getWhere(), null, null);
    }
    final List<SqlNode> items = select.getSelectList() == null ? List.of()
        : select.getSelectList().getList();
    if (items.size() != columns.size()) {
      return null;
    }
    final SqlNodeList targets = new SqlNodeList(POS);
    final SqlNodeList values = new SqlNodeList(POS);
    for (int i = 0; i < columns.size(); i++) {
      final int column = table.layout().columnIndex(columns.get(i));
      targets.add(new SqlIdentifier(site.physicalColumns().get(column), POS));
      values.add(SqlUtil.stripAs(items.get(i)));
    }
    return new SqlUpdate(POS, target, targets, values, select.getWhere(), null, null);
  }
}
