package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptRule;
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

  /** Converts a logical {@link ShardScan} to an {@link EnumerableShardScan}. */
  public static final ShardScanToEnumerableRule TO_ENUMERABLE =
      ShardScanToEnumerableRule.DEFAULT_CONFIG.toRule(ShardScanToEnumerableRule.class);

  /** All the rules a shard scan registers. Calcite's transitive-predicate rule is among them:
   * {@code c.ID = o.ID AND c.ID = 42} then also prunes {@code o}'s shards to those of 42. */
  public static final List<RelOptRule> RULES = List.of(TABLE_SCAN, FILTER, PROJECT,
      TO_ENUMERABLE, CoreRules.JOIN_PUSH_TRANSITIVE_PREDICATES);
}
