package io.shardset.calcite.prepare;

import io.shardset.calcite.guard.ShardHints;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The converter of {@code jdbc:shardset:} statements, which gives every table a query block
 * reads the block's {@code SHARDS} and {@code SCATTER} hints, and those of every block around
 * it, when the table is converted.
 *
 * <p>Calcite attaches a block's hints to the block's top node and hands them down to the
 * tables after the whole statement is converted, along the tree: not into the subqueries
 * inside expressions ({@code IN}, {@code EXISTS}), and not through a block whose top node the
 * block around it has already merged away (a derived table under an aggregate). A hint that
 * restricts a DELETE's subquery to one shard would then read every shard.
 */
class BlockHintConverter extends InListConverter {
  /** The ShardSet hints of the blocks being converted, the innermost first. */
  private final Deque<List<RelHint>> blocks = new ArrayDeque<>();

  BlockHintConverter(RelOptTable.ViewExpander viewExpander, SqlValidator validator,
      Prepare.CatalogReader catalogReader, RelOptCluster cluster,
      SqlRexConvertletTable convertletTable, Config config) {
    super(viewExpander, validator, catalogReader, cluster, convertletTable, config);
  }

  @Override protected void convertSelectImpl(Blackboard bb, Blackboard measureBb,
      SqlSelect select) {
    final List<RelHint> own = new ArrayList<>();
    if (select.hasHints()) {
      for (RelHint hint : SqlUtil.getRelHint(ShardHints.STRATEGIES, select.getHints())) {
        if (ShardHints.is(hint, ShardHints.SHARDS) || ShardHints.is(hint, ShardHints.SCATTER)) {
          own.add(hint);
        }
      }
    }
    blocks.push(own);
    try {
      super.convertSelectImpl(bb, measureBb, select);
    } finally {
      blocks.pop();
    }
  }

  @Override public RelNode toRel(RelOptTable table, List<RelHint> hints) {
    final List<RelHint> all = new ArrayList<>(hints);
    blocks.forEach(all::addAll);
    return super.toRel(table, all);
  }
}
