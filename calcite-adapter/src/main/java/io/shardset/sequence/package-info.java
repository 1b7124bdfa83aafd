/**
 * Global sequences: numbers unique across every process and shard of a schema, handed to each
 * process in blocks from the schema's shared database (its catalog, or its decision log's
 * database), above transactions and below writes and the planner.
 */
package io.shardset.sequence;
