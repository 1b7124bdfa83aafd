package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.Sarg;

import com.google.common.collect.ImmutableRangeSet;
import com.google.common.collect.Range;
import com.google.common.collect.TreeRangeSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Narrows long literal lists of a one-column numeric shard key ({@code key IN (1, 2, ...)},
 * a search of points) in the pushed work to each shard's own keys, so that a list of ten
 * thousand keys sends each shard only its share.
 *
 * <p>Exact wherever the list stands (under NOT, beside other conditions): a row of a shard has
 * a key of that shard, so it is in the whole list exactly when it is in the shard's part. A
 * shard that owns none of the keys keeps one of another shard, which none of its rows has
 * (an empty list cannot be written in SQL). Only for tables whose placement cannot change
 * after planning: the router is stable and the schema does not follow a changing model.
 */
final class KeyPointLists {
  /** Lists shorter than this are sent whole: one text serves every shard. */
  static final int MIN_POINTS = 20;

  private KeyPointLists() {
  }

  /** Whether the pushed work of a table has a list to narrow. */
  static boolean applies(ShardTable table, RelNode pushed) {
    final ShardRouter router = table.router();
    if (router == null || !router.isStable() || table.live() != null
        || router.keyTypes().size() != 1 || router.keyTypes().get(0) != KeyType.NUMBER) {
      return false;
    }
    final boolean[] found = {false};
    rewrite(table, pushed, (ref, sarg) -> {
      found[0] = true;
      return null;
    });
    return found[0];
  }

  /** The pushed work with every long key list narrowed to the keys of shard {@code shard}. */
  static RelNode forShard(ShardTable table, RelNode pushed, int shard) {
    final ShardRouter router = Objects.requireNonNull(table.router(), "router");
    final RexBuilder rexBuilder = pushed.getCluster().getRexBuilder();
    return rewrite(table, pushed, (ref, sarg) -> {
      final TreeRangeSet<BigDecimal> own = TreeRangeSet.create();
      BigDecimal foreign = null;
      for (Range<BigDecimal> point : sarg.rangeSet.asRanges()) {
        final BigDecimal value = point.lowerEndpoint();
        final OptionalInt owner = router.shardOf(List.of(value));
        if (owner.isPresent() && owner.getAsInt() == shard) {
          own.add(point);
        } else if (foreign == null) {
          foreign = value;
        }
      }
      if (own.isEmpty() && foreign != null) {
        own.add(Range.singleton(foreign));
      }
      return rexBuilder.makeCall(SqlStdOperatorTable.SEARCH, List.of(ref,
          rexBuilder.makeSearchArgumentLiteral(
              Sarg.of(sarg.nullAs, ImmutableRangeSet.copyOf(own)), ref.getType())));
    });
  }

  /** Rewrites a list: the key column and the list's points; null keeps it. */
  private interface ListRewriter {
    @Nullable RexNode rewrite(RexInputRef ref, Sarg<BigDecimal> sarg);
  }

  private static RelNode rewrite(ShardTable table, RelNode rel, ListRewriter rewriter) {
    final List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      final RelNode newInput = rewrite(table, input, rewriter);
      inputs.add(newInput);
      changed |= newInput != input;
    }
    RelNode result = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (result instanceof Filter filter) {
      final KeyColumns keyColumns = KeyColumns.of(filter.getInput(), table);
      final RexNode condition = filter.getCondition().accept(new RexShuttle() {
        @Override public RexNode visitCall(RexCall call) {
          final RexNode list = keyList(call, keyColumns, rewriter);
          return list != null ? list : super.visitCall(call);
        }
      });
      if (condition != filter.getCondition()) {
        result = filter.copy(filter.getTraitSet(), filter.getInput(), condition);
      }
    }
    return result;
  }

  @SuppressWarnings("unchecked")
  private static @Nullable RexNode keyList(RexCall call, KeyColumns keyColumns,
      ListRewriter rewriter) {
    if (call.getKind() != SqlKind.SEARCH
        || !(call.getOperands().get(0) instanceof RexInputRef ref)
        || keyColumns.keyColumn(ref.getIndex()) != 0
        || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
      return null;
    }
    final Sarg<?> sarg = literal.getValueAs(Sarg.class);
    if (sarg == null || !sarg.isPoints() || sarg.pointCount < MIN_POINTS
        || !(sarg.rangeSet.span().lowerEndpoint() instanceof BigDecimal)) {
      return null;
    }
    return rewriter.rewrite(ref, (Sarg<BigDecimal>) sarg);
  }
}
