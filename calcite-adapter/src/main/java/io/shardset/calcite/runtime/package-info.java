/**
 * What generated code calls at execution: the immutable plan of a shard scan, runtime shard
 * pruning from query parameters, and parameter binding.
 */
package io.shardset.calcite.runtime;
