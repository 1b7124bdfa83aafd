/**
 * The tables of a model resolved against what the shards hold ({@link
 * io.shardset.topology.ShardedTable}: each table's physical tables and columns, router and
 * shard endpoints), and where their rows live under each version of a model file that changes
 * ({@link io.shardset.topology.TablePlacement}). Scans, loading and resharding read tables
 * and placements here. Above the model and the execution layer's endpoints, below the
 * planner; no Calcite.
 */
package io.shardset.topology;
