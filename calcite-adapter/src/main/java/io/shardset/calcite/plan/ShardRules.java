package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.rules.CoreRules;

import java.util.List;

/** Rules that push work into {@link ShardScan} and make it executable. */
public final class ShardRules {
  private ShardRules() {
  }

  /** Turns the scan of a sharded table into a {@link ShardScan}. */
  public static final ShardTableScanRule TABLE_SCAN = ShardTableScanRule.DEFAULT_CONFIG.toRule(
      ShardTableScanRule.class);

  /** Pushes the shard-executable part of a Filter into the scan and prunes shards. */
  public static final ShardFilterRule FILTER = ShardFilterRule.DEFAULT_CONFIG.toRule(
      ShardFilterRule.class);

  /** Pushes a Project (or, failing that, the columns it reads) into the scan. */
  public static final ShardProjectRule PROJECT = ShardProjectRule.DEFAULT_CONFIG.toRule(
      ShardProjectRule.class);

  /** Pushes an Aggregate, whole or split into partial and final aggregates. */
  public static final ShardAggregateRule AGGREGATE = ShardAggregateRule.DEFAULT_CONFIG.toRule(
      ShardAggregateRule.class);

  /** Runs co-located and reference-table joins inside the shards. */
  public static final ShardJoinRule JOIN = ShardJoinRule.DEFAULT_CONFIG.toRule(
      ShardJoinRule.class);

  /** Pushes ORDER BY and LIMIT; the shards' sorted streams are merged. */
  public static final ShardSortRule SORT = ShardSortRule.DEFAULT_CONFIG.toRule(
      ShardSortRule.class);

  /** Converts a logical {@link ShardScan} to an {@link EnumerableShardScan}. */
  public static final ShardScanToEnumerableRule TO_ENUMERABLE =
      ShardScanToEnumerableRule.DEFAULT_CONFIG.toRule(ShardScanToEnumerableRule.class);

  /** Computes STDDEV and VARIANCE in DOUBLE rather than in the column's type. */
  public static final VarianceInDoubleRule VARIANCE_IN_DOUBLE =
      VarianceInDoubleRule.DEFAULT_CONFIG.toRule(VarianceInDoubleRule.class);

  /** Calcite's reduction of AVG, STDDEV, VARIANCE and the like into sums and counts, except
   * for the variances {@link #VARIANCE_IN_DOUBLE} first moves to DOUBLE. */
  public static final RelOptRule REDUCE_FUNCTIONS = CoreRules.AGGREGATE_REDUCE_FUNCTIONS.config
      .withDescription("ShardSetAggregateReduceFunctionsRule")
      .as(AggregateReduceFunctionsRule.Config.class)
      .withExtraCondition(call -> !VarianceInDoubleRule.inexact(call))
      .toRule();

  /** Implements offset and fetch, taking LIMIT ? and OFFSET ? of any integral type. */
  public static final RowLimitRule ROW_LIMIT = RowLimitRule.DEFAULT_CONFIG.toRule(
      RowLimitRule.class);

  /** Turns the join Calcite makes of a long IN list into a search or an OR. */
  public static final InListToSearchRule IN_LIST = InListToSearchRule.DEFAULT_CONFIG.toRule(
      InListToSearchRule.class);

  /** Makes the INSERT into a sharded table executable; a {@link ShardTableModify} registers
   * it. */
  public static final ShardTableModifyRule MODIFY = ShardTableModifyRule.DEFAULT_CONFIG.toRule(
      ShardTableModifyRule.class);

  /** All the rules a shard scan registers, with Calcite's transitive-predicate rule:
   * {@code c.ID = o.ID AND c.ID = 42} then also prunes {@code o}'s shards to those of 42. */
  public static final List<RelOptRule> RULES = List.of(TABLE_SCAN, FILTER, PROJECT,
      AGGREGATE, JOIN, SORT, TO_ENUMERABLE, CoreRules.JOIN_PUSH_TRANSITIVE_PREDICATES,
      VARIANCE_IN_DOUBLE, REDUCE_FUNCTIONS, ROW_LIMIT, IN_LIST);

  /**
   * Adds the rules to a planner, in place of two of Calcite's: its reduction of aggregate
   * functions, which would compute a variance in the column's type before
   * {@link #VARIANCE_IN_DOUBLE} could move it to DOUBLE, and its limit rule, whose limit casts
   * a {@code LIMIT ?} value to Integer. Scans call it as the planner registers them, before
   * any node above them is registered and matched. Constants are reduced through
   * {@link LiteralPreservingExecutor}.
   */
  public static void register(RelOptPlanner planner) {
    planner.removeRule(CoreRules.AGGREGATE_REDUCE_FUNCTIONS);
    planner.removeRule(EnumerableRules.ENUMERABLE_LIMIT_RULE);
    RULES.forEach(planner::addRule);
    LiteralPreservingExecutor.install(planner);
  }
}
