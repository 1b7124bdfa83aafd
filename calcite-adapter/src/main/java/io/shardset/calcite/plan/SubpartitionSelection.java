package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.model.Subpartitioning;
import io.shardset.routing.KeyCondition;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * The subpartitions a shard scan reads of its subpartitioned table: a fixed set known when the
 * query is planned, or a condition with query parameters that picks them each time the
 * statement executes.
 *
 * <p>The condition is what the pushed filters say about the subpartition column of the scan
 * {@link SubpartitionFields} leads to (the left-most one), routed by the subpartitions' ranges
 * as the shard key condition is by the shards'. Other subpartitioned tables a join reads are
 * read whole.
 */
public final class SubpartitionSelection {
  private static final SubpartitionSelection NONE =
      new SubpartitionSelection(null, KeyCondition.any(), null);

  private final @Nullable Subpartitioning subpartitioning;
  private final KeyCondition condition;
  private final @Nullable BitSet staticSubpartitions;

  private SubpartitionSelection(@Nullable Subpartitioning subpartitioning,
      KeyCondition condition, @Nullable BitSet staticSubpartitions) {
    this.subpartitioning = subpartitioning;
    this.condition = condition;
    this.staticSubpartitions = staticSubpartitions;
  }

  /** The selection of a pushed tree; one that reads nothing when the left-most table has no
   * subpartitions. */
  static SubpartitionSelection of(RelNode pushed) {
    final ShardTable table = SubpartitionFields.table(pushed);
    if (table == null) {
      return NONE;
    }
    final Subpartitioning sub = table.subpartitioning();
    final List<KeyCondition> terms = new ArrayList<>();
    for (RelNode rel = pushed; rel != null; rel = SubpartitionFields.below(rel)) {
      if (SubpartitionFields.limits(rel)) {
        terms.clear(); // filters above a limit do not decide which rows it keeps
      }
      if (rel instanceof Filter filter) {
        final RelNode input = filter.getInput();
        terms.add(KeyConditionTranslator.translate(filter.getCondition(),
            KeyColumns.ofFields(input.getRowType().getFieldCount(),
                SubpartitionFields.of(input), sub.type()),
            filter.getCluster()));
      }
    }
    final KeyCondition condition = KeyConditions.and(terms);
    return new SubpartitionSelection(sub, condition, condition.hasParams() ? null
        : condition.shards(sub.router(), i -> {
          throw new IllegalStateException("no parameters at planning time");
        }));
  }

  /** Whether the scan reads a subpartitioned table whose subpartitions this selection picks. */
  public boolean isSubpartitioned() {
    return subpartitioning != null;
  }

  /** Whether query parameters decide the subpartitions at execution. */
  public boolean isDynamic() {
    return subpartitioning != null && staticSubpartitions == null;
  }

  /** Whether the subpartitions are known at planning time and none can hold a matching row. */
  boolean isEmpty() {
    return staticSubpartitions != null && staticSubpartitions.isEmpty();
  }

  /** The subpartitions known at planning time: the selected ones; null, meaning all of them,
   * when the parameters decide or the scan cannot be pruned. */
  @Nullable BitSet planned() {
    if (subpartitioning == null) {
      return null;
    }
    if (staticSubpartitions != null) {
      return (BitSet) staticSubpartitions.clone();
    }
    return null;
  }

  /** The condition on the subpartition column, as key column 0. */
  public KeyCondition condition() {
    return condition;
  }

  /** The subpartitions that can hold matching rows for these parameter values. */
  public BitSet select(IntFunction<Object> params) {
    if (subpartitioning == null) {
      return new BitSet();
    }
    return staticSubpartitions != null ? (BitSet) staticSubpartitions.clone()
        : condition.shards(subpartitioning.router(), params);
  }

  /** Describes the selection for EXPLAIN: {@code 2 of 3: p2020, p2021}, or
   * {@code at execution by ?0 of 3}. */
  String describe() {
    if (subpartitioning == null) {
      return "";
    }
    final int total = subpartitioning.count();
    if (staticSubpartitions == null) {
      final TreeSet<Integer> params = new TreeSet<>();
      ShardSelection.collectParams(condition, params);
      final StringBuilder b = new StringBuilder("at execution by");
      params.forEach(p -> b.append(" ?").append(p));
      return b.append(" of ").append(total).toString();
    }
    final StringBuilder b = new StringBuilder()
        .append(staticSubpartitions.cardinality()).append(" of ").append(total);
    final List<String> names = new ArrayList<>();
    staticSubpartitions.stream().forEach(i -> names.add(subpartitioning.names().get(i)));
    if (!names.isEmpty()) {
      b.append(": ").append(String.join(", ", names));
    }
    return b.toString();
  }
}
