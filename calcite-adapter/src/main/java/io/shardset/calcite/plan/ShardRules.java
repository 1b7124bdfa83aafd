package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.adapter.enumerable.EnumerableTableModifyRule;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalTableModify;
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

  /** Runs co-located semi and anti joins inside the shards, for the heuristic phase that
   * orders inner joins (which the general rule would push before they are ordered). */
  public static final ShardJoinRule SEMI_JOIN = ShardJoinRule.SEMI_CONFIG.toRule(
      ShardJoinRule.class);

  /** Gathers three or more inner joins into a MultiJoin, the joins shards can run pushed. */
  public static final ShardMultiJoinRule MULTI_JOIN = ShardMultiJoinRule.DEFAULT_CONFIG.toRule(
      ShardMultiJoinRule.class);

  /** Pulls the conjuncts every branch of an OR repeats out of it. */
  public static final FilterFactorsRule FILTER_FACTORS = FilterFactorsRule.DEFAULT_CONFIG.toRule(
      FilterFactorsRule.class);

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

  /** Makes the UPDATE, DELETE or MERGE of a sharded table a {@link ShardTableModify}. */
  public static final ShardModifyRule MODIFY_TABLE = ShardModifyRule.DEFAULT_CONFIG.toRule(
      ShardModifyRule.class);

  /** Calcite's implementation of a change of a table, for tables not sharded: a sharded
   * table's change must never run as a change of its (empty) modifiable collection. */
  public static final RelOptRule OTHER_TABLE_MODIFY = EnumerableTableModifyRule.DEFAULT_CONFIG
      .withConversion(LogicalTableModify.class,
          (LogicalTableModify m) -> m.getTable().unwrap(ShardTable.class) == null,
          Convention.NONE, EnumerableConvention.INSTANCE, "NonShardTableModifyRule")
      .toRule();

  /** Lets the shards run an UPDATE or DELETE themselves when they can compute it exactly;
   * a {@link ShardTableModify} registers it. */
  public static final ShardModifyPushRule MODIFY_PUSH = ShardModifyPushRule.DEFAULT_CONFIG
      .toRule(ShardModifyPushRule.class);

  /** Sorts above the shards within the statement's sort memory, spilling beyond it. */
  public static final SpillingSortRule SPILLING_SORT = SpillingSortRule.DEFAULT_CONFIG.toRule(
      SpillingSortRule.class);

  /** Aggregates above the shards within the statement's sort memory, spilling beyond it. */
  public static final SpillingAggregateRule SPILLING_AGGREGATE =
      SpillingAggregateRule.DEFAULT_CONFIG.toRule(SpillingAggregateRule.class);

  /** Joins above the shards within the statement's sort memory, spilling beyond it. */
  public static final SpillingHashJoinRule SPILLING_HASH_JOIN =
      SpillingHashJoinRule.DEFAULT_CONFIG.toRule(SpillingHashJoinRule.class);

  /** Calcite's merge join rule, but not for anti joins: its merge join drops the left rows
   * whose key is null, which an anti join on {@code =} (a {@code NOT EXISTS}) keeps. */
  public static final RelOptRule MERGE_JOIN_NOT_ANTI =
      ((ConverterRule) EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE).config
          .withConversion(LogicalJoin.class,
              (LogicalJoin join) -> join.getJoinType() != JoinRelType.ANTI, Convention.NONE,
              EnumerableConvention.INSTANCE, "EnumerableMergeJoinRule:notAnti")
          .toRule();

  /** All the rules a shard scan registers, with Calcite's transitive-predicate rule:
   * {@code c.ID = o.ID AND c.ID = 42} then also prunes {@code o}'s shards to those of 42. */
  public static final List<RelOptRule> RULES = List.of(TABLE_SCAN, FILTER, PROJECT,
      AGGREGATE, JOIN, SORT, TO_ENUMERABLE, CoreRules.JOIN_PUSH_TRANSITIVE_PREDICATES,
      VARIANCE_IN_DOUBLE, REDUCE_FUNCTIONS, ROW_LIMIT, IN_LIST, MODIFY_TABLE,
      OTHER_TABLE_MODIFY, FILTER_FACTORS, SPILLING_SORT, SPILLING_AGGREGATE,
      SPILLING_HASH_JOIN);

  /**
   * Adds the rules to a planner, in place of three of Calcite's: its reduction of aggregate
   * functions, which would compute a variance in the column's type before
   * {@link #VARIANCE_IN_DOUBLE} could move it to DOUBLE; its limit rule, whose limit casts
   * a {@code LIMIT ?} value to Integer; and its table modification rule, which would make a
   * sharded table's UPDATE or DELETE a change of the table's modifiable collection
   * ({@link #OTHER_TABLE_MODIFY} keeps it for other tables); and its merge join rule, by
   * {@link #MERGE_JOIN_NOT_ANTI}. Scans call it as the planner
   * registers them, before any node above them is registered and matched. Constants are
   * reduced through {@link LiteralPreservingExecutor}.
   */
  public static void register(RelOptPlanner planner) {
    planner.removeRule(CoreRules.AGGREGATE_REDUCE_FUNCTIONS);
    planner.removeRule(EnumerableRules.ENUMERABLE_LIMIT_RULE);
    planner.removeRule(EnumerableRules.ENUMERABLE_TABLE_MODIFICATION_RULE);
    if (planner.removeRule(EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE)) {
      planner.addRule(MERGE_JOIN_NOT_ANTI);
    }
    RULES.forEach(planner::addRule);
    planner.addRule(ShardMergeRule.INSTANCE);
    LiteralPreservingExecutor.install(planner);
  }
}
