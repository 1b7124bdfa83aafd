package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.ExactTimestamps;
import io.shardset.calcite.runtime.ShardWrites;
import io.shardset.calcite.runtime.WriteTarget;
import io.shardset.model.ColumnInfo;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.stream.IntStream;

/**
 * Executable twin of {@link ShardTableModify}: its input's rows, as arrays, go to
 * {@link ShardWrites}, which places each on its shard and physical table and writes it in the
 * statement's transaction; the result is the row count. For an UPDATE or DELETE the input is
 * the read of the rows to change (the table's columns and, for an UPDATE, each new value),
 * changed row by row by primary key: the way a write goes when the shards cannot run it
 * themselves ({@link EnumerableShardPushedModify}), or when it changes where rows live.
 *
 * <p>Code generation only stashes one {@link WriteTarget} and the connections' transactions,
 * and calls {@link ShardWrites#write}; everything else is plain Java.
 */
public final class EnumerableShardTableModify extends TableModify implements EnumerableRel {
  private final ShardTable shardTable;
  /** The columns an INSERT leaves out, for the shards to fill. */
  private final List<Integer> defaulted;

  private EnumerableShardTableModify(RelOptCluster cluster, RelTraitSet traitSet,
      RelOptTable table, Prepare.CatalogReader catalogReader, RelNode input,
      Operation operation, @Nullable List<String> updateColumnList,
      @Nullable List<RexNode> sourceExpressionList, boolean flattened,
      ShardTable shardTable, List<Integer> defaulted) {
    super(cluster, traitSet, table, catalogReader, input, operation, updateColumnList,
        sourceExpressionList, flattened);
    this.shardTable = shardTable;
    this.defaulted = List.copyOf(defaulted);
  }

  static EnumerableShardTableModify create(ShardTableModify modify, RelNode input) {
    return new EnumerableShardTableModify(modify.getCluster(),
        modify.getTraitSet().replace(EnumerableConvention.INSTANCE), modify.getTable(),
        modify.getCatalogReader(), input, modify.getOperation(),
        modify.getUpdateColumnList(), modify.getSourceExpressionList(), modify.isFlattened(),
        modify.shardTable(), modify.defaulted());
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableShardTableModify(getCluster(), traitSet, getTable(),
        getCatalogReader(), sole(inputs), getOperation(), getUpdateColumnList(),
        getSourceExpressionList(), isFlattened(), shardTable, defaulted);
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("shards", shardTable.shardCount())
        .itemIf("duplicated", true, shardTable.isDuplicated())
        .itemIf("defaults", defaulted, !defaulted.isEmpty());
  }

  /** What the runtime needs to write: no planner object. */
  public WriteTarget target() {
    return new WriteTarget(shardTable.sharded(), shardTable.coordinator(),
        ShardWrites.Operation.valueOf(getOperation().name()), updatedColumns(this),
        defaulted, computedDefaults(), exactTimestamps());
  }

  /** The input's timestamps finer than a millisecond: an INSERT's values, an UPDATE's new
   * values (after the table's columns). */
  private ExactTimestamps exactTimestamps() {
    return switch (getOperation()) {
    case INSERT -> ExactTimestampSources.of(getInput(), 0);
    case UPDATE -> ExactTimestampSources.of(getInput(), getTable().getRowType().getFieldCount());
    default -> ExactTimestamps.NONE;
    };
  }

  /**
   * The columns whose default ShardSet computes rather than the shards (a global sequence's
   * next value): those the table's initializer gives a default the shards do not have.
   */
  private List<Integer> computedDefaults() {
    final InitializerExpressionFactory defaults =
        getTable().unwrap(InitializerExpressionFactory.class);
    if (defaults == null) {
      return List.of();
    }
    final List<ColumnInfo> columns = shardTable.sharded().layout().columns();
    return IntStream.range(0, columns.size())
        .filter(i -> !columns.get(i).defaulted()
            && defaults.generationStrategy(getTable(), i) == ColumnStrategy.DEFAULT)
        .boxed().toList();
  }

  /** The position of each column an UPDATE sets, in the order of its new values. */
  static List<Integer> updatedColumns(TableModify modify) {
    final List<String> names = modify.getUpdateColumnList();
    if (names == null || modify.getOperation() != Operation.UPDATE) {
      return List.of();
    }
    final List<String> fields = modify.getTable().getRowType().getFieldNames();
    return names.stream().map(fields::indexOf).toList();
  }

  /** The input's fields a column is set to: every field of an INSERT, the SET values of an
   * UPDATE. */
  private List<Integer> assignedFields() {
    return switch (getOperation()) {
    case INSERT -> IntStream.range(0, getInput().getRowType().getFieldCount()).boxed()
        .toList();
    case UPDATE -> getSourceExpressionList() == null ? List.of()
        : getSourceExpressionList().stream().filter(RexInputRef.class::isInstance)
            .map(ref -> ((RexInputRef) ref).getIndex()).toList();
    default -> List.of();
    };
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // What ShardSet computes fails where the shard's own statement would.
    RelNode input = AssignedValues.checked(getInput(), assignedFields());
    // INSERT ... VALUES: its rows are data, not code, however many they are.
    if (getOperation() == Operation.INSERT) {
      input = StashedValues.in(input);
    }
    // Rows read only to be written: their timestamps as exact as the shards hold them.
    if (input instanceof EnumerableShardScan scan) {
      input = scan.forWrite();
    }
    if (input != getInput()) {
      // Calcite's implementor checks that a child is its parent's input.
      return ((EnumerableShardTableModify) copy(getTraitSet(), List.of(input)))
          .implement(implementor, pref);
    }
    return WriteCode.implement(this, (EnumerableRel) input, implementor,
        ShardWrites.WRITE, target(), WriteTarget.class,
        shardTable.sessions());
  }
}
