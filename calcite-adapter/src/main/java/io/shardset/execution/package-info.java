/**
 * Execution layer: sends one SQL statement to each target shard in parallel, through one
 * connection pool per shard, and streams the merged rows to a single consumer with bounded
 * memory, prompt cancellation and no leaked shard statements or connections.
 */
package io.shardset.execution;
