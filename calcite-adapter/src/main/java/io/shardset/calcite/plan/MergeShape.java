package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.write.MergeLayout;
import io.shardset.write.UpsertForm;
import io.shardset.write.UpsertSpec;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.dialect.H2SqlDialect;
import org.apache.calcite.sql.dialect.MysqlSqlDialect;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.apache.calcite.util.ImmutableBitSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a MERGE into a sharded table does, read from the plan SQL-to-rel conversion makes of
 * it: a Project of [values to insert (every column)..., the table's matched row (every
 * column, NULL when none matched)..., new values of the updated columns...] over the source
 * joined with the table (LEFT when the statement inserts, INNER when it only updates).
 *
 * <p>It is a native upsert when the ON condition is the equality of every primary-key column
 * with the value the row would be inserted with, the new values depend on the source only,
 * every routing column is part of the key and never updated (so the inserted values place the
 * row where a row of its key lives), and every shard's database has a native upsert;
 * otherwise it is row-wise, with the reason.
 *
 * @param upsert the native upsert, or null
 * @param input for a native upsert, the values to insert then the new values, over the
 *     join's source input; for a row-wise MERGE, the joined rows as {@link MergeLayout} says,
 *     over the join
 * @param rowWise the layout of a row-wise MERGE, or null
 * @param reason why the MERGE is row-wise; null when native
 */
record MergeShape(@Nullable UpsertSpec upsert, List<RexNode> input,
    @Nullable MergeLayout rowWise, @Nullable String reason) {

  /**
   * The shape of a MERGE, or null when the Project and Join are not as SQL-to-rel conversion
   * makes them (a rewritten variant: another match of the rule sees the original).
   *
   * @param key the table column index of each primary-key column (non-empty)
   * @throws MergeRefusedException if the MERGE cannot be run
   */
  static @Nullable MergeShape of(TableModify modify, Project project, Join join,
      ShardTable table, List<Integer> key) {
    final int columns = table.layout().columns().size();
    final List<String> updateNames = modify.getUpdateColumnList();
    final int updates = updateNames == null ? 0 : updateNames.size();
    final boolean inserts = join.getJoinType() == JoinRelType.LEFT;
    final int source = join.getLeft().getRowType().getFieldCount();
    final List<RexNode> exprs = project.getProjects();
    final int matched = inserts ? columns : 0;
    // Calcite's conversion drops the first table columns when the ON condition made it add
    // fields to the source (a cast of a source value to the key's type): one per field. They
    // are plain references to the join's table side, so they are put back.
    final int lost = matched + (updates == 0 ? 0 : columns + updates) - exprs.size();
    if (join.getRight().getRowType().getFieldCount() != columns
        || !inserts && join.getJoinType() != JoinRelType.INNER
        || lost < 0 || lost > 0 && updates == 0) {
      return null;
    }
    final List<RexNode> rows = new ArrayList<>(exprs.subList(0, matched));
    if (updates > 0) {
      for (int i = lost; i < columns; i++) {
        if (!(exprs.get(matched + i - lost) instanceof RexInputRef ref)
            || ref.getIndex() != source + i) {
          return null;
        }
      }
      for (int i = 0; i < columns; i++) {
        rows.add(RexInputRef.of(source + i, join.getRowType()));
      }
      rows.addAll(exprs.subList(exprs.size() - updates, exprs.size()));
    }
    if (updates == 0) {
      throw new MergeRefusedException("MERGE into " + table.qualifiedName() + " without WHEN"
          + " MATCHED is not supported: the plan does not say which source rows match;"
          + " add WHEN MATCHED THEN UPDATE SET, or use INSERT");
    }
    final List<Integer> updateColumns = new ArrayList<>();
    for (String name : updateNames) {
      updateColumns.add(table.layout().columnIndex(name));
    }
    final MergeLayout layout = new MergeLayout(key, updateColumns, inserts);
    final List<RexNode> insertExprs = rows.subList(0, matched);
    final List<RexNode> updateExprs = rows.subList(rows.size() - updates, rows.size());
    final String reason = rowWiseReason(table, key, join, source, insertExprs, updateColumns,
        updateExprs);
    if (reason != null) {
      return new MergeShape(null, rows, layout, reason);
    }
    final List<Boolean> fromInsert = new ArrayList<>();
    for (int j = 0; j < updates; j++) {
      fromInsert.add(updateExprs.get(j).equals(insertExprs.get(updateColumns.get(j))));
    }
    final List<UpsertForm> forms = new ArrayList<>();
    for (int shard = 0; shard < table.shardCount(); shard++) {
      forms.add(form(table.dialect(shard)));
    }
    final List<RexNode> input = new ArrayList<>(insertExprs);
    input.addAll(updateExprs);
    return new MergeShape(new UpsertSpec(key, updateColumns, fromInsert, forms), input, null,
        null);
  }

  /** Why the MERGE cannot be a native upsert, or null if it can. */
  private static @Nullable String rowWiseReason(ShardTable table, List<Integer> key, Join join,
      int source, List<RexNode> insertExprs, List<Integer> updateColumns,
      List<RexNode> updateExprs) {
    final List<String> names = table.layout().columnNames();
    final List<String> keyNames = key.stream().map(names::get).toList();
    if (insertExprs.isEmpty()) {
      return "it has no WHEN NOT MATCHED THEN INSERT";
    }
    final Map<Integer, RexNode> on = keyEqualities(join.getCondition(), source);
    if (on == null || !on.keySet().equals(new TreeSet<>(key))) {
      return "its ON condition is not the equality of each primary-key column " + keyNames
          + " with a source value";
    }
    for (int k : key) {
      if (!RexUtil.removeCast(throughCast(on.get(k), join.getLeft()))
          .equals(RexUtil.removeCast(insertExprs.get(k)))) {
        return "its ON condition compares " + names.get(k) + " with another value than the"
            + " one inserted";
      }
    }
    for (RexNode e : updateExprs) {
      if (RelOptUtil.InputFinder.bits(e).nextSetBit(source) >= 0) {
        return "a SET value reads the table's columns";
      }
    }
    for (int column : routingColumns(table)) {
      if (!key.contains(column)) {
        return "routing column " + names.get(column) + " is not part of the primary key "
            + keyNames;
      }
      if (updateColumns.contains(column)) {
        return "it updates routing column " + names.get(column);
      }
    }
    for (int shard = 0; shard < table.shardCount(); shard++) {
      if (form(table.dialect(shard)) == null) {
        return "shard '" + table.shardName(shard) + "' ("
            + table.dialect(shard).getClass().getSimpleName() + ") has no native upsert";
      }
    }
    return null;
  }

  /** Each key column the condition equates with a source expression, or null when the
   * condition is anything else than such equalities. */
  private static @Nullable Map<Integer, RexNode> keyEqualities(RexNode condition,
      int source) {
    final Map<Integer, RexNode> equalities = new HashMap<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
      if (conjunct.getKind() != SqlKind.EQUALS) {
        return null;
      }
      final List<RexNode> operands = ((RexCall) conjunct).getOperands();
      final int target = targetColumn(operands.get(0), source);
      final int other = targetColumn(operands.get(1), source);
      if ((target < 0) == (other < 0)) {
        return null;
      }
      final RexNode value = target >= 0 ? operands.get(1) : operands.get(0);
      final ImmutableBitSet read = RelOptUtil.InputFinder.bits(value);
      if (read.nextSetBit(source) >= 0
          || equalities.put(Math.max(target, other), value) != null) {
        return null;
      }
    }
    return equalities;
  }

  /**
   * The source value a join condition compares, seen through the Project that conversion
   * adds to the source for a cast (the source's fields, then the cast): the cast itself, in
   * the terms the inserted values use.
   */
  private static RexNode throughCast(RexNode value, RelNode left) {
    final RelNode original = left instanceof RelSubset subset && subset.getOriginal() != null
        ? subset.getOriginal() : left;
    if (!(value instanceof RexInputRef ref) || !(original instanceof Project cast)) {
      return value;
    }
    final RexNode e = cast.getProjects().get(ref.getIndex());
    for (int i : RelOptUtil.InputFinder.bits(e)) {
      if (!(cast.getProjects().get(i) instanceof RexInputRef same) || same.getIndex() != i) {
        return value;
      }
    }
    return e;
  }

  /** The table column an expression reads as it is (a cast at most), or -1. */
  private static int targetColumn(RexNode e, int source) {
    return RexUtil.removeCast(e) instanceof RexInputRef ref && ref.getIndex() >= source
        ? ref.getIndex() - source : -1;
  }

  /** The columns that place a row: routing key, subpartition column. */
  private static List<Integer> routingColumns(ShardTable table) {
    final List<Integer> columns = new ArrayList<>(table.keyColumns());
    if (table.subpartitioning() != null) {
      columns.add(table.subpartitioning().column());
    }
    return columns;
  }

  /** The native upsert of a shard's dialect, or null. Asked of the dialect's class: the
   * dialects built from shards' metadata do not all say their product. MariaDB's dialect is
   * MySQL's. */
  private static @Nullable UpsertForm form(SqlDialect dialect) {
    if (dialect instanceof PostgresqlSqlDialect) {
      return UpsertForm.ON_CONFLICT;
    }
    if (dialect instanceof MysqlSqlDialect) {
      return UpsertForm.ON_DUPLICATE_KEY;
    }
    return dialect instanceof H2SqlDialect ? UpsertForm.STANDARD_MERGE : null;
  }
}
