package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.KeyLists;
import io.shardset.routing.KeyCondition;
import io.shardset.routing.ShardRouter;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the parameter lists of a scan's key condition ({@code key = ?0 OR key = ?1 ...}, which
 * is how Calcite reads {@code key IN (?, ?)}) whose values can be narrowed per shard: the key
 * has one column, and each parameter appears in the pushed work only compared with a column,
 * so that replacing a value that lives on another shard changes no row's outcome.
 */
final class KeyListFinder {
  private KeyListFinder() {
  }

  static KeyLists find(ShardTable table, KeyCondition condition, RelNode pushed) {
    final ShardRouter router = table.router();
    if (router == null || router.keyTypes().size() != 1) {
      return KeyLists.NONE;
    }
    final List<List<Integer>> lists = new ArrayList<>();
    collect(condition, lists);
    if (lists.isEmpty()) {
      return KeyLists.NONE;
    }
    final Uses uses = new Uses();
    collectUses(pushed, uses);
    return new KeyLists(lists.stream()
        .filter(list -> list.stream().allMatch(uses::onlyComparedWithAColumn))
        .toList());
  }

  private static void collect(KeyCondition condition, List<List<Integer>> lists) {
    if (condition instanceof KeyCondition.And and) {
      and.terms().forEach(term -> collect(term, lists));
    } else if (condition instanceof KeyCondition.Or or && or.terms().size() > 1) {
      final List<Integer> params = new ArrayList<>();
      for (KeyCondition term : or.terms()) {
        if (!(term instanceof KeyCondition.Compare compare)
            || compare.op() != KeyCondition.Op.EQ
            || !(compare.operand() instanceof KeyCondition.Param param)) {
          return;
        }
        params.add(param.index());
      }
      lists.add(params);
    }
  }

  private static void collectUses(RelNode rel, Uses uses) {
    rel.accept(uses);
    rel.getInputs().forEach(input -> collectUses(input, uses));
  }

  /** Counts each parameter's uses, and those that compare it with a column. */
  private static final class Uses extends RexShuttle {
    private final Map<Integer, Integer> all = new HashMap<>();
    private final Map<Integer, Integer> comparedWithAColumn = new HashMap<>();

    @Override public RexNode visitDynamicParam(RexDynamicParam param) {
      all.merge(param.getIndex(), 1, Integer::sum);
      return param;
    }

    @Override public RexNode visitCall(RexCall call) {
      if (call.getKind() == SqlKind.EQUALS) {
        final RexNode left = call.getOperands().get(0);
        final RexNode right = call.getOperands().get(1);
        if (left instanceof RexInputRef && right instanceof RexDynamicParam p) {
          comparedWithAColumn.merge(p.getIndex(), 1, Integer::sum);
        } else if (right instanceof RexInputRef && left instanceof RexDynamicParam p) {
          comparedWithAColumn.merge(p.getIndex(), 1, Integer::sum);
        }
      }
      return super.visitCall(call);
    }

    boolean onlyComparedWithAColumn(int index) {
      final Integer uses = all.get(index);
      return uses != null && uses.equals(comparedWithAColumn.get(index));
    }
  }
}
