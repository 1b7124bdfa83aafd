/**
 * What the shards themselves hold, as opposed to what the model declares: each table's
 * physical tables and columns, read from the shards. Above the model, below execution and the
 * planner; no Calcite.
 */
package io.shardset.topology;
