/**
 * The catalog: a database that keeps each ShardSet schema's model as numbered versions, for
 * model files that point at it instead of listing shards and tables. Configuration with I/O:
 * it uses the model layer, and nothing above it.
 */
package io.shardset.catalog;
