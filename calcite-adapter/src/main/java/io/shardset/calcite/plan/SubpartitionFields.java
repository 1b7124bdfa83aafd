package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.model.Subpartitioning;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * Follows a pushed tree from its root down to the scan whose subpartitions it can prune (the
 * left-most scan), and says which fields along the way carry that scan's subpartition column.
 *
 * <p>The path goes through the operators that keep each row of the scan (or each group of
 * rows with one column value) recognizable in their output: Filters, Projects, Sorts,
 * Aggregates whose group keys include the column, and the left side of inner, left, semi and
 * anti joins. A filter on the path that rejects every row of a subpartition can therefore
 * skip reading it; a filter above a Sort with a limit cannot (the limit would pick other
 * rows), and a right or full join would turn the skipped rows into unmatched rows.
 */
final class SubpartitionFields {
  private static final Set<JoinRelType> LEFT_KEEPING = Set.of(JoinRelType.INNER,
      JoinRelType.LEFT, JoinRelType.SEMI, JoinRelType.ANTI);

  private SubpartitionFields() {
  }

  /** The next operator down the path, or null where the path ends short of a scan. */
  static @Nullable RelNode below(RelNode rel) {
    if (rel instanceof Filter || rel instanceof Project || rel instanceof Sort
        || rel instanceof Aggregate aggregate && aggregate.getGroupType()
            == Aggregate.Group.SIMPLE) {
      return rel.getInput(0);
    }
    if (rel instanceof Join join && LEFT_KEEPING.contains(join.getJoinType())) {
      return join.getLeft();
    }
    return null;
  }

  /** Whether a filter above {@code rel} says nothing about which rows of the scan count:
   * a Sort that limits its rows. */
  static boolean limits(RelNode rel) {
    return rel instanceof Sort sort && (sort.fetch != null || sort.offset != null);
  }

  /** The subpartitioned table the path from {@code rel} ends at, or null. */
  static @Nullable ShardTable table(RelNode rel) {
    for (RelNode r = rel; r != null; r = below(r)) {
      if (r instanceof TableScan scan) {
        final ShardTable table = scan.getTable().unwrap(ShardTable.class);
        return table != null && table.subpartitioning() != null ? table : null;
      }
    }
    return null;
  }

  /** The output fields of {@code rel} that are the subpartition column of the scan its path
   * ends at. */
  static BitSet of(RelNode rel) {
    final BitSet result = new BitSet();
    if (rel instanceof TableScan scan) {
      final ShardTable table = scan.getTable().unwrap(ShardTable.class);
      final Subpartitioning sub = table == null ? null : table.subpartitioning();
      if (sub != null) {
        result.set(sub.column());
      }
      return result;
    }
    final RelNode input = below(rel);
    if (input == null) {
      return result;
    }
    final BitSet fields = of(input);
    if (rel instanceof Project project) {
      final List<RexNode> exprs = project.getProjects();
      for (int i = 0; i < exprs.size(); i++) {
        if (exprs.get(i) instanceof RexInputRef ref && fields.get(ref.getIndex())) {
          result.set(i);
        }
      }
      return result;
    }
    if (rel instanceof Aggregate aggregate) {
      final List<Integer> keys = aggregate.getGroupSet().asList();
      for (int i = 0; i < keys.size(); i++) {
        if (fields.get(keys.get(i))) {
          result.set(i);
        }
      }
      return result;
    }
    // Filters and Sorts pass fields on; a join's output starts with its left input's.
    return fields;
  }
}
