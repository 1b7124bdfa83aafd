package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.routing.KeyCondition;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.List;

/**
 * Rule that runs a join inside the shards when every pair of matching rows lives on one
 * shard: two co-located consistent-hash tables joined on their whole shard key, two composite
 * tables partitioned alike joined on the partition column and the whole shard key, a
 * composite table restricted to one shardspace joined on its shard key with a consistent-hash
 * table of that shardspace, a sharded table joined with a duplicated (reference) table, or
 * two duplicated tables. The joined
 * scan reaches the shards the driving (sharded) side reaches; pruning on either side of a
 * co-located inner join narrows it.
 *
 * <p>Only inner joins, and left, semi and anti joins whose left side drives (each of its
 * rows meets all its matches on its own shard), are pushed; any other join runs above the
 * scans. A semi or anti join needs an {@code =} of a left and a right column in its condition
 * and may test anything else ({@code EXISTS} and {@code NOT EXISTS} of TPC-H Q21, made joins
 * by {@link ExistsAsJoins}); {@link SemiJoinWriter} writes them as SQL.
 */
public final class ShardJoinRule extends RelRule<ShardRuleConfig> {
  /** Default configuration. */
  static final ShardRuleConfig DEFAULT_CONFIG = ShardRuleConfig.of("ShardJoinRule",
      b0 -> b0.operand(LogicalJoin.class).inputs(
          b1 -> b1.operand(ShardScan.class).noInputs(),
          b2 -> b2.operand(ShardScan.class).noInputs()),
      ShardJoinRule::new);

  /** Only semi and anti joins. */
  static final ShardRuleConfig SEMI_CONFIG = ShardRuleConfig.of("ShardJoinRule:semi",
      b0 -> b0.operand(LogicalJoin.class)
          .predicate(join -> !join.getJoinType().projectsRight())
          .inputs(
              b1 -> b1.operand(ShardScan.class).noInputs(),
              b2 -> b2.operand(ShardScan.class).noInputs()),
      ShardJoinRule::new);

  private ShardJoinRule(ShardRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final ShardScan pushed = push(call.rel(0), call.<ShardScan>rel(1).spec(),
        call.<ShardScan>rel(2).spec());
    if (pushed != null) {
      call.transformTo(pushed);
    }
  }

  /**
   * The scan that runs {@code join} of two shard scans inside the shards, or null if the join
   * must run above them. {@link ShardMultiJoinRule} asks the same question of every pair of
   * tables a statement joins, so that join ordering keeps the joins the shards can run.
   */
  static @Nullable ShardScan push(LogicalJoin join, ShardScanSpec left, ShardScanSpec right) {
    final JoinRelType type = join.getJoinType();
    final boolean semi = SemiJoinWriter.isPushable(join);
    if (!acceptsSides(left.phase(), right.phase(), type)
        || type != JoinRelType.INNER && type != JoinRelType.LEFT && !semi
        || !join.getVariablesSet().isEmpty()
        || !left.hints().joinsWith(right.hints())
        || !PushdownPolicy.canPush(join.getCondition(), left.table(), right.table())) {
      return null;
    }
    final ShardScanSpec driving = driving(join, left, right);
    if (driving == null) {
      return null;
    }
    final RelNode pushed = LogicalJoin.create(left.pushed(), right.pushed(), List.of(),
        join.getCondition(), join.getVariablesSet(), type);
    // On an inner join of a table family both sides' key predicates hold for the joined
    // rows' one key; otherwise only the driving side's say where its rows are.
    final KeyCondition condition = type == JoinRelType.INNER
        && left.table().isColocatedWith(right.table())
        ? KeyConditions.and(left.condition(), right.condition())
        : driving.condition();
    return ShardScan.create(join.getCluster(), driving.joined(pushed, condition,
        driving == left ? right : left));
  }

  /**
   * Whether the two sides' work is one a join can go on top of in the shards: rows, or on one
   * side a complete aggregate, whose groups each live on one shard ({@link Phase#AGGREGATED}),
   * joined on the key it is grouped by ({@link #driving} checks the keys). A group then meets
   * on its shard every row it can match: Calcite writes {@code EXISTS (SELECT ... WHERE o.K =
   * c.K)} as a semi join with the distinct values of {@code o.K}, and {@code K IN (SELECT K
   * ... GROUP BY K HAVING ...)} (TPC-H Q18) as an inner join with them. The aggregate may be
   * the right side of an inner, left or semi join, or the left side of an inner join.
   */
  private static boolean acceptsSides(Phase left, Phase right, JoinRelType type) {
    if (left == Phase.ROWS) {
      return right == Phase.ROWS || right == Phase.AGGREGATED;
    }
    return left == Phase.AGGREGATED && right == Phase.ROWS && type == JoinRelType.INNER;
  }

  /** The side whose shards the join runs on, or null if the join is not shard-local. */
  private static @Nullable ShardScanSpec driving(LogicalJoin join, ShardScanSpec left,
      ShardScanSpec right) {
    final ShardTable l = left.table();
    final ShardTable r = right.table();
    if (l.isDuplicated() && r.isDuplicated()) {
      // Both on every shard: the left table's read shard must also hold the right table.
      return r.shardIndex(l.shardName(l.readShard())) >= 0 ? left : null;
    }
    if (r.isDuplicated()) {
      return holdsAll(r, l) ? left : null;
    }
    if (l.isDuplicated()) {
      // A left join from a duplicated table would repeat its unmatched rows on every shard.
      return join.getJoinType() == JoinRelType.INNER && holdsAll(l, r) ? right : null;
    }
    if (l.isColocatedWith(r)) {
      return joinsOnWholeKey(join, left, right) ? left : null;
    }
    if (isCompositeInHashSpace(left, right) && joinsOnShardKey(join, left, right, true)) {
      return left;
    }
    // A left join from a consistent-hash table would lose its rows on shards the restricted
    // composite side does not reach.
    return join.getJoinType() == JoinRelType.INNER && isCompositeInHashSpace(right, left)
        && joinsOnShardKey(join, left, right, false) ? right : null;
  }

  /**
   * Whether {@code composite} is a composite table restricted, at planning time, to shards of
   * one shardspace whose chunk layout {@code hash}, a consistent-hash table, shares: then every
   * composite row that can match lives where {@code hash} keeps rows of its shard key.
   * Unrestricted, a composite table's rows of other shardspaces are hashed by other chunk
   * layouts, and their matches may be on another shard; so is a restriction known only when
   * the statement executes (a parameter), so the join then runs above the scans.
   */
  private static boolean isCompositeInHashSpace(ShardScanSpec composite, ShardScanSpec hash) {
    final BitSet shards = composite.selection().staticShards();
    return shards != null && composite.table().isColocatedWithin(shards, hash.table());
  }

  /** Whether {@code reference} has a copy on every shard of {@code sharded}. */
  private static boolean holdsAll(ShardTable reference, ShardTable sharded) {
    return sharded.shardNames().stream().allMatch(n -> reference.shardIndex(n) >= 0);
  }

  /** Whether the join's equalities pair each shard key column of one side with the same key
   * column of the other. */
  private static boolean joinsOnWholeKey(LogicalJoin join, ShardScanSpec left,
      ShardScanSpec right) {
    return pairsKeys(join, left, 0, right, 0, left.table().keyColumns().size());
  }

  /** Whether the join's equalities pair each column of the composite side's shard key
   * (routing key positions 1 to n, after the partition column) with the same position of
   * the consistent-hash side's key. */
  private static boolean joinsOnShardKey(LogicalJoin join, ShardScanSpec left,
      ShardScanSpec right, boolean compositeIsLeft) {
    final int compositeOffset = 1;
    final ShardScanSpec hash = compositeIsLeft ? right : left;
    return pairsKeys(join, left, compositeIsLeft ? compositeOffset : 0, right,
        compositeIsLeft ? 0 : compositeOffset, hash.table().keyColumns().size());
  }

  /** Whether the join's equalities pair routing key column {@code k + leftOffset} of the left
   * side with column {@code k + rightOffset} of the right side, for each k below
   * {@code keySize}. */
  private static boolean pairsKeys(LogicalJoin join, ShardScanSpec left, int leftOffset,
      ShardScanSpec right, int rightOffset, int keySize) {
    final JoinInfo info = join.analyzeCondition();
    final KeyColumns leftKeys = KeyColumns.of(left.pushed(), left.table());
    final KeyColumns rightKeys = KeyColumns.of(right.pushed(), right.table());
    final BitSet paired = new BitSet();
    for (int i = 0; i < info.leftKeys.size(); i++) {
      final int k = leftKeys.keyColumn(info.leftKeys.get(i)) - leftOffset;
      if (k >= 0 && k < keySize
          && rightKeys.keyColumn(info.rightKeys.get(i)) == k + rightOffset) {
        paired.set(k);
      }
    }
    return keySize > 0 && paired.cardinality() == keySize;
  }
}
