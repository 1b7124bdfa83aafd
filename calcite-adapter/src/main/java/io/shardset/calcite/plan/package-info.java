/**
 * Planner: the single shard-scan node, the rules that push filters and projections into it
 * and prune shards, and per-dialect SQL generation.
 */
package io.shardset.calcite.plan;
