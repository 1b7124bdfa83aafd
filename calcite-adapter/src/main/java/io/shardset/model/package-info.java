/**
 * The ShardSet model: the schema factory's operand parsed into typed, validated values, the
 * tables' column layouts read from the shards, and each table's router.
 *
 * <p>Nothing here depends on Calcite, so the model can be checked by tools and tests that run
 * without a query engine.
 */
package io.shardset.model;
