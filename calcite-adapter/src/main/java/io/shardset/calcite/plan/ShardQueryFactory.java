package io.shardset.calcite.plan;

import io.shardset.calcite.ColumnTypes;
import io.shardset.calcite.ShardTable;
import io.shardset.calcite.guard.ScatterGuard;
import io.shardset.calcite.runtime.LivePlacement;
import io.shardset.calcite.runtime.ParameterBinder;
import io.shardset.calcite.runtime.PlannedScan;
import io.shardset.calcite.runtime.ReadPlan;
import io.shardset.calcite.runtime.ScanShards;
import io.shardset.calcite.runtime.ShardQuery;
import io.shardset.calcite.runtime.ShardRouting;
import io.shardset.calcite.runtime.ShardStatements;
import io.shardset.calcite.runtime.ShardTexts;
import io.shardset.calcite.runtime.SubpartitionChoice;
import io.shardset.execution.RowComparator;
import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.SortKey;
import io.shardset.routing.KeyCondition;
import io.shardset.routing.ShardRouter;
import io.shardset.topology.LiveSource;

import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns a planned shard scan into the immutable {@link ShardQuery} the runtime executes. */
final class ShardQueryFactory {
  private ShardQueryFactory() {
  }

  /**
   * The query of a scan.
   *
   * @param exactTimestamps whether its rows go to a write, which takes TIMESTAMP values as
   *     the shards return them ({@link ColumnTypes#rowReader})
   */
  static ShardQuery create(ShardScanSpec spec, boolean exactTimestamps) {
    final ShardTable table = spec.table();
    final SubpartitionSelection subpartitions = spec.subpartitions();
    final List<String> names = new ArrayList<>();
    final List<ShardEndpoint> endpoints = new ArrayList<>();
    for (int i = 0; i < table.shardCount(); i++) {
      names.add(table.shardName(i));
      endpoints.add(table.site(i).endpoint());
    }
    final PlannedScan plan = new PlannedScan(
        new ScanShards(table.qualifiedName(), names, endpoints, table.coordinator(),
            ShardSqlGenerator.scannedTables(spec.pushed()).stream()
                .map(ShardTable::qualifiedName).toList()),
        subpartitions.isDynamic() || table.live() != null
            ? checked(spec.statements(), spec.sqls(), table)
            : ShardStatements.fixed(spec.sqls()),
        subpartitions.isDynamic()
            ? new SubpartitionChoice(subpartitions::select,
                !aggregatesWithoutGroups(spec.pushed()))
            : null,
        new ShardRouting(spec.selection().staticShards(), spec.condition(), table.router(),
            KeyListFinder.find(table, spec.pushed()), spec.selection().allowed()),
        new ParameterBinder(parameterTypes(spec.pushed())),
        new ReadPlan(ColumnTypes.rowReader(spec.pushed().getRowType(), exactTimestamps),
            table.parallelism(),
            spec.needsMerge() ? mergeOrder(spec.collation()) : null, table.isDuplicated(),
            fixesShardKey(table, spec.condition()), lockable(spec.pushed())),
        guard(spec));
    return new ShardQuery(plan, live(spec));
  }

  /**
   * The statements, once their templates filled in as the plan reads give each shard the
   * text rendered directly from the plan: the check that the templates have a place for
   * every scan where the SQL writer put it, so that executions that fill them in otherwise
   * write what the writer would.
   *
   * @throws IllegalStateException when a shard's texts differ
   */
  private static ShardStatements checked(ShardStatements statements, ShardTexts rendered,
      ShardTable table) {
    final ShardTexts filled = statements.planned();
    for (int i = 0; i < table.shardCount(); i++) {
      if (filled.has(i) != rendered.has(i) || filled.has(i)
          && (!filled.of(i).sql().equals(rendered.of(i).sql())
              || !filled.of(i).parameters().equals(rendered.of(i).parameters()))) {
        throw new IllegalStateException("the statement template of " + table.qualifiedName()
            + " on shard " + table.shardName(i) + " gives "
            + (filled.has(i) ? filled.of(i) : "no text") + " where the plan renders "
            + (rendered.has(i) ? rendered.of(i) : "no text"));
      }
    }
    return statements;
  }

  /** Where the model file of the table's schema places the scan's rows at each execution;
   * null when the schema's model cannot change. */
  private static @Nullable LivePlacement live(ShardScanSpec spec) {
    final ShardTable table = spec.table();
    final LiveSource source = table.live();
    if (source == null) {
      return null;
    }
    return new LivePlacement(source, table.sharded(),
        ShardSqlGenerator.scannedTables(spec.pushed()).stream().map(ShardTable::sharded)
            .toList());
  }

  /** The scatter guardrail of the sharded tables the scan reads. */
  static ScatterGuard guard(ShardScanSpec spec) {
    final List<ScatterGuard.GuardedTable> tables = new ArrayList<>();
    for (ShardTable read : ShardSqlGenerator.scannedTables(spec.pushed())) {
      if (!read.isDuplicated()) {
        tables.add(new ScatterGuard.GuardedTable(read.qualifiedName(), read.scatterLimit(),
            read.shardCount(), read.spec().shardKey(), read.scatterWarnings()));
      }
    }
    return tables.isEmpty() ? ScatterGuard.NONE
        : new ScatterGuard(tables, spec.hints().scatter());
  }

  /** Whether the pushed work aggregates without GROUP BY somewhere, which gives a row even
   * from empty tables. */
  private static boolean aggregatesWithoutGroups(RelNode rel) {
    return rel instanceof Aggregate aggregate && aggregate.getGroupSet().isEmpty()
        || rel.getInputs().stream().anyMatch(ShardQueryFactory::aggregatesWithoutGroups);
  }

  /**
   * Whether the rows of the pushed work are rows of its tables, which a shard can lock with
   * {@code FOR UPDATE}: no aggregate or DISTINCT, no set operation, no window.
   */
  private static boolean lockable(RelNode rel) {
    if (rel instanceof Aggregate || rel instanceof SetOp
        || rel instanceof Project project && RexOver.containsOver(project.getProjects(), null)
        || rel instanceof Filter filter && RexOver.containsOver(filter.getCondition())) {
      return false;
    }
    return rel.getInputs().stream().allMatch(ShardQueryFactory::lockable);
  }

  /** Whether the condition fixes every shard key column to a few values (= or IN). */
  private static boolean fixesShardKey(ShardTable table, KeyCondition condition) {
    final ShardRouter router = table.router();
    return router != null
        && condition.fixedColumns().cardinality() == router.keyTypes().size();
  }

  /** The comparator under which every shard returns its rows, NULLs placed as the collation
   * says (each shard's SQL says so explicitly). */
  private static RowComparator mergeOrder(RelCollation collation) {
    final List<SortKey> keys = new ArrayList<>();
    for (RelFieldCollation field : collation.getFieldCollations()) {
      final RelFieldCollation.NullDirection nulls =
          field.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
              ? field.direction.defaultNullDirection() : field.nullDirection;
      keys.add(new SortKey(field.getFieldIndex(), field.direction.isDescending(),
          nulls == RelFieldCollation.NullDirection.FIRST));
    }
    return RowComparator.of(keys);
  }

  /** The declared SQL type of every query parameter in the pushed tree. */
  private static Map<Integer, SqlTypeName> parameterTypes(RelNode pushed) {
    final Map<Integer, SqlTypeName> types = new HashMap<>();
    final RexShuttle collector = new RexShuttle() {
      @Override public RexNode visitDynamicParam(RexDynamicParam p) {
        types.put(p.getIndex(), p.getType().getSqlTypeName());
        return p;
      }
    };
    collect(pushed, collector);
    return types;
  }

  private static void collect(RelNode rel, RexShuttle collector) {
    rel.accept(collector);
    rel.getInputs().forEach(input -> collect(input, collector));
  }
}
