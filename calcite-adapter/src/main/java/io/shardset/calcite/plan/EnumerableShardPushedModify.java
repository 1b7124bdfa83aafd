package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.PushedWrite;
import io.shardset.calcite.runtime.ShardWrites;
import io.shardset.calcite.runtime.SqlTemplate;
import io.shardset.calcite.runtime.WriteTarget;
import io.shardset.execution.StatementTracker;
import io.shardset.session.Sessions;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlExplainLevel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An UPDATE or DELETE that the target shards run themselves: one statement per target
 * physical table, in the shard's dialect, to the shards (and subpartition tables) a read with
 * the same WHERE clause reaches, pruned at planning for literals and at execution for query
 * parameters; the result is the sum of the shards' counts (one shard's, for a duplicated
 * table whose every shard changes its copy). A leaf: the shards read the rows themselves.
 */
public final class EnumerableShardPushedModify extends AbstractRelNode
    implements EnumerableRel {
  private final TableModify.Operation operation;
  private final List<String> updateColumns;
  private final List<Integer> updated;
  private final ShardScanSpec spec;
  private final List<List<SqlTemplate.Rendered>> statements;
  private final RelDataType rowType;

  private EnumerableShardPushedModify(RelOptCluster cluster, RelTraitSet traitSet,
      TableModify modify, ShardScanSpec spec, List<List<SqlTemplate.Rendered>> statements) {
    super(cluster, traitSet);
    this.operation = modify.getOperation();
    this.updateColumns = modify.getUpdateColumnList() == null ? List.of()
        : List.copyOf(modify.getUpdateColumnList());
    this.updated = EnumerableShardTableModify.updatedColumns(modify);
    this.spec = spec;
    this.statements = statements;
    this.rowType = modify.getRowType();
  }

  static EnumerableShardPushedModify create(TableModify modify, ShardScanSpec spec,
      List<List<SqlTemplate.Rendered>> statements) {
    return new EnumerableShardPushedModify(modify.getCluster(),
        modify.getCluster().traitSetOf(EnumerableConvention.INSTANCE), modify, spec,
        statements);
  }

  @Override protected RelDataType deriveRowType() {
    return rowType;
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  /** Cheaper than any read of the rows followed by changes row by row. */
  @Override public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }

  @Override public double estimateRowCount(RelMetadataQuery mq) {
    return 1;
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    final ShardTable table = spec.table();
    pw.item("table", table.qualifiedName())
        .item("operation", operation)
        .itemIf("updateColumnList", updateColumns, !updateColumns.isEmpty());
    if (pw.getDetailLevel() == SqlExplainLevel.DIGEST_ATTRIBUTES) {
      return pw.item("pushed", spec.toString());
    }
    pw.item("shards", table.isDuplicated() ? "all " + table.shardCount() + " (duplicated)"
        : spec.selection().describe(table));
    pw.itemIf("subpartitions", spec.subpartitions().describe(),
        spec.subpartitions().isSubpartitioned());
    // The subpartition tables the plan fixes; null when all, or chosen at execution.
    final BitSet planned = spec.subpartitions().planned();
    final Map<String, BitSet> texts = new LinkedHashMap<>();
    final BitSet reached = table.isDuplicated() || spec.selection().isDynamic() ? null
        : spec.selection().staticShards();
    for (int shard = 0; shard < statements.size(); shard++) {
      if (reached != null && !reached.get(shard)) {
        continue;
      }
      final List<String> sqls = new ArrayList<>();
      final List<SqlTemplate.Rendered> tables = statements.get(shard);
      for (int t = 0; t < tables.size(); t++) {
        if (planned == null || planned.get(t)) {
          sqls.add(tables.get(t).sql());
        }
      }
      texts.computeIfAbsent(String.join("; ", sqls), k -> new BitSet()).set(shard);
    }
    if (texts.size() == 1) {
      return pw.item("sql", texts.keySet().iterator().next());
    }
    texts.forEach((sql, shards) -> {
      final List<String> names = new ArrayList<>();
      shards.stream().forEach(i -> names.add(table.shardName(i)));
      pw.item("sql" + names, sql);
    });
    return pw;
  }

  /** The scan whose shards the write changes. */
  ShardScanSpec spec() {
    return spec;
  }

  /** What the runtime needs to write: no planner object. */
  public PushedWrite pushedWrite() {
    final ShardTable table = spec.table();
    return new PushedWrite(
        WriteTarget.of(table.sharded(), table.coordinator(),
            ShardWrites.Operation.valueOf(operation.name()), updated),
        ShardQueryFactory.create(spec, false).plan(), statements, spec.subpartitions().planned());
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final Expression pushed = implementor.stash(pushedWrite(), PushedWrite.class);
    final Expression sessions = implementor.stash(spec.table().sessions(), Sessions.class);
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.SCALAR);
    final Expression statements = implementor.stash(
        spec.table().openScans().services().statements(), StatementTracker.class);
    return implementor.result(physType, Blocks.toBlock(Expressions.call(ShardWrites.PUSHED,
        implementor.getRootExpression(), pushed, sessions, statements)));
  }
}
