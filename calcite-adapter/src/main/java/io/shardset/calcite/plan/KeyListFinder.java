package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.KeyLists;
import io.shardset.routing.ShardRouter;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the parameter lists of a scan's pushed filters whose values can be narrowed per shard:
 * the disjuncts of one OR ({@code key = ?0 OR key = ?1 ...}, which is how Calcite reads
 * {@code key IN (?, ?)}) that are each a bare equality of a one-column shard key with a
 * parameter used nowhere else.
 *
 * <p>Why that is exact: on a shard that holds the key of one of them, {@code key = v} for a
 * value v of another shard is false for every row there (unknown where the key is NULL), so
 * replacing it by a copy of the shard's own disjunct of the same OR leaves the OR's value
 * unchanged for every row, whatever surrounds the OR (AND, NOT, CASE). A parameter in any other
 * position (next to a condition on another column, say) keeps its value.
 */
final class KeyListFinder {
  private KeyListFinder() {
  }

  static KeyLists find(ShardTable table, RelNode pushed) {
    final ShardRouter router = table.router();
    if (router == null || router.keyTypes().size() != 1) {
      return KeyLists.NONE;
    }
    final List<List<Integer>> candidates = new ArrayList<>();
    final Uses uses = new Uses();
    collect(pushed, table, candidates, uses);
    final List<List<Integer>> lists = new ArrayList<>();
    for (List<Integer> candidate : candidates) {
      final List<Integer> list = candidate.stream().filter(uses::usedOnce).toList();
      if (list.size() > 1) {
        lists.add(list);
      }
    }
    return lists.isEmpty() ? KeyLists.NONE : new KeyLists(lists);
  }

  /** Collects the candidate lists of every pushed filter, and every parameter use. */
  private static void collect(RelNode rel, ShardTable table, List<List<Integer>> lists,
      Uses uses) {
    if (rel instanceof Filter filter) {
      final KeyColumns keyColumns = KeyColumns.of(filter.getInput(), table);
      filter.getCondition().accept(new RexShuttle() {
        @Override public RexNode visitCall(RexCall call) {
          if (call.getKind() == SqlKind.OR) {
            final List<Integer> params = new ArrayList<>();
            for (RexNode disjunct : call.getOperands()) {
              final Integer param = keyEqualsParam(disjunct, keyColumns);
              if (param != null) {
                params.add(param);
              }
            }
            if (params.size() > 1) {
              lists.add(params);
            }
          }
          return super.visitCall(call);
        }
      });
    }
    rel.accept(uses);
    rel.getInputs().forEach(input -> collect(input, table, lists, uses));
  }

  /** The parameter of {@code key = ?n} or {@code ?n = key}, else null. */
  private static @Nullable Integer keyEqualsParam(RexNode node, KeyColumns keyColumns) {
    if (node.getKind() != SqlKind.EQUALS || !(node instanceof RexCall call)) {
      return null;
    }
    final RexNode left = call.getOperands().get(0);
    final RexNode right = call.getOperands().get(1);
    if (left instanceof RexInputRef ref && right instanceof RexDynamicParam param
        && keyColumns.keyColumn(ref.getIndex()) == 0) {
      return param.getIndex();
    }
    if (right instanceof RexInputRef ref && left instanceof RexDynamicParam param
        && keyColumns.keyColumn(ref.getIndex()) == 0) {
      return param.getIndex();
    }
    return null;
  }

  /** Counts each parameter's uses anywhere in the pushed work. */
  private static final class Uses extends RexShuttle {
    private final Map<Integer, Integer> counts = new HashMap<>();

    @Override public RexNode visitDynamicParam(RexDynamicParam param) {
      counts.merge(param.getIndex(), 1, Integer::sum);
      return param;
    }

    boolean usedOnce(int index) {
      return counts.getOrDefault(index, 0) == 1;
    }
  }
}
