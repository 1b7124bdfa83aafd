/**
 * What a statement may do, decided before it reaches a shard: the SQL hints ShardSet follows
 * ({@code SHARDS}, {@code SCATTER}), the scatter guardrails of the model, a connection and a
 * server role, and the refusal a statement gets when it may not run. Depends on no other
 * ShardSet planner package, so that the schema, the planner, the runtime and the JDBC layer can
 * all use it.
 */
package io.shardset.calcite.guard;
