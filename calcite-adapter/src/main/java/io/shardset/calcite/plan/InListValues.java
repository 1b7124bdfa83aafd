package io.shardset.calcite.plan;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of an IN list as Calcite turns it into a relation: literals become one
 * {@link Values}; any other element ({@code ?}, a cast of one) becomes a projection of a
 * one-row {@link Values}, and the union of all of them is the list. A distinct
 * {@link Aggregate} over either may come first.
 *
 * @param values the list's elements, in order, repeats included: literals, parameters and
 *     casts of parameters
 * @param distinct whether the relation keeps one row per distinct value
 */
record InListValues(List<RexNode> values, boolean distinct) {
  InListValues {
    values = List.copyOf(values);
  }

  /** Whether every element is a literal (a list Calcite can fold into a search). */
  boolean allLiterals() {
    return values.stream().allMatch(RexLiteral.class::isInstance);
  }

  /** The list a one-column relation holds, or null if it is not the relation of a list. */
  static @Nullable InListValues of(RelNode rel) {
    final RelNode node = rel.stripped();
    if (node.getRowType().getFieldCount() != 1) {
      return null;
    }
    if (node instanceof Aggregate aggregate) {
      if (!aggregate.getAggCallList().isEmpty()
          || !aggregate.getGroupSet().equals(ImmutableBitSet.of(0))
          || aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
        return null;
      }
      final List<RexNode> values = new ArrayList<>();
      return collect(aggregate.getInput(), values) ? new InListValues(values, true) : null;
    }
    final List<RexNode> values = new ArrayList<>();
    return collect(node, values) ? new InListValues(values, false) : null;
  }

  private static boolean collect(RelNode rel, List<RexNode> values) {
    final RelNode node = rel.stripped();
    if (node instanceof Values literals) {
      literals.getTuples().forEach(tuple -> values.add(tuple.get(0)));
      return true;
    }
    if (node instanceof Union union && union.all) {
      for (RelNode input : union.getInputs()) {
        if (!collect(input, values)) {
          return false;
        }
      }
      return true;
    }
    if (node instanceof Project project && isOneRow(project.getInput())) {
      final RexNode value = project.getProjects().get(0);
      if (!(value instanceof RexLiteral)
          && !(RexUtil.removeCast(value) instanceof RexDynamicParam)) {
        return false;
      }
      values.add(value);
      return true;
    }
    return false;
  }

  private static boolean isOneRow(RelNode rel) {
    return rel.stripped() instanceof Values one && one.getTuples().size() == 1;
  }
}
